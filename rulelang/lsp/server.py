"""The language server over stdio, on pygls: it keeps the open files, checks each one
a moment after the last change (the debounce), and answers the editor's requests from
the newest analysis (rulelang/lsp/analysis.py)."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from lsprotocol import types as T
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from rulelang.diagnostics import Span
from rulelang.lsp import convert, navigate, outline
from rulelang.lsp.analysis import Analysis, Cache
from rulelang.lsp.complete import complete
from rulelang.lsp.hover import BUILT_IN_ATTRS, CODE, hover_code, hover_symbol
from rulelang.lsp.index import Occurrence
from rulelang.lsp.text import Lines, Place

DEBOUNCE_MS = 150  # after the last change, before the file is checked again
REQUEST_FAILED = -32803  # the protocol's code for a request refused (a rename)


class RuleServer(LanguageServer):
    def __init__(self, debounce_ms: int = DEBOUNCE_MS) -> None:
        super().__init__("rulelang", _version())
        self.cache = Cache()
        self.delay = debounce_ms / 1000
        self.timers: dict[str, asyncio.TimerHandle] = {}

    def path_of(self, uri: str) -> str:
        """The file a document stands for: its path, or a name in the current folder
        for an unsaved one (what it extends is then looked for from there)."""
        path = to_fs_path(uri) if uri.startswith("file:") else None
        return path or str(Path.cwd() / (uri.rsplit("/", 1)[-1] or "untitled.rules"))

    def analysis(self, uri: str) -> tuple[Analysis, Analysis | None]:
        """The analysis of the document's text now, and the newest that parsed."""
        doc = self.workspace.get_text_document(uri)
        path = self.path_of(uri)
        return self.cache.get(doc.source, path), self.cache.navigable(path)

    def publish(self, uri: str) -> None:
        self.timers.pop(uri, None)
        if uri not in self.workspace.text_documents:
            return  # closed meanwhile
        now, _ = self.analysis(uri)
        lines = Lines(now.text)
        diagnostics = [
            convert.diagnostic(lines, d, now.path, _reading(now, d.span.file))
            for d in now.diagnostics
        ]
        version = self.workspace.get_text_document(uri).version
        self.text_document_publish_diagnostics(
            T.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version)
        )

    def later(self, uri: str) -> None:
        """Check the document once no change has come for the debounce's time."""
        old = self.timers.pop(uri, None)
        if old is not None:
            old.cancel()
        loop = asyncio.get_running_loop()
        self.timers[uri] = loop.call_later(self.delay, self.publish, uri)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("rulelang")
    except PackageNotFoundError:
        return "0"


def _reading(now: Analysis, file: str) -> Span | None:
    """The span of the `extends` or `import` through which `file` was read."""
    for link in now.links:
        if link.target == file:
            return link.span
    return now.links[0].span if now.links else None


def _at(ls: RuleServer, uri: str, pos: T.Position) -> tuple[Analysis, Occurrence | None]:
    """The analysis to navigate with and the name at `pos` in it."""
    now, nav = ls.analysis(uri)
    base = nav or now
    lines = Lines(now.text)
    col = lines.from_utf16(pos.line + 1, pos.character)
    index = base.index()
    return base, index.at(base.path, pos.line + 1, col) if index else None


def _location(base: Analysis, place: Place) -> T.Location:
    index = base.index()
    assert index is not None
    return T.Location(
        convert.uri_of(place.file), convert.place_range(index.text(place.file), place)
    )


def make_server(debounce_ms: int = DEBOUNCE_MS) -> RuleServer:
    server = RuleServer(debounce_ms)
    logging.getLogger("pygls").setLevel(logging.CRITICAL)  # its logs would go to stderr

    @server.feature(T.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: RuleServer, params: T.DidOpenTextDocumentParams) -> None:
        ls.publish(params.text_document.uri)

    @server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: RuleServer, params: T.DidChangeTextDocumentParams) -> None:
        ls.later(params.text_document.uri)

    @server.feature(T.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: RuleServer, params: T.DidSaveTextDocumentParams) -> None:
        # a saved file may be another's base: check every open file again
        ls.cache.forget()
        for uri in list(ls.workspace.text_documents):
            ls.publish(uri)

    @server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: RuleServer, params: T.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.cache.forget(ls.path_of(uri))
        ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    _requests(server)
    return server


def _requests(server: RuleServer) -> None:
    @server.feature(T.TEXT_DOCUMENT_HOVER)
    def hover(ls: RuleServer, params: T.HoverParams) -> T.Hover | None:
        return _hover(ls, params.text_document.uri, params.position)

    @server.feature(T.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: RuleServer, params: T.DefinitionParams) -> list[T.Location] | None:
        uri, pos = params.text_document.uri, params.position
        base, occ = _at(ls, uri, pos)
        now, _ = ls.analysis(uri)  # the column in characters, as _at counts it
        col = Lines(now.text).from_utf16(pos.line + 1, pos.character)
        link = navigate.link_at(base, pos.line + 1, col)
        if occ is None and link is not None:
            start = T.Position(line=0, character=0)
            return [T.Location(convert.uri_of(link.target), T.Range(start, start))]
        index = base.index()
        place = navigate.definition(index, occ) if occ and index else None
        return [_location(base, place)] if place else None

    @server.feature(T.TEXT_DOCUMENT_REFERENCES)
    def references(ls: RuleServer, params: T.ReferenceParams) -> list[T.Location] | None:
        base, occ = _at(ls, params.text_document.uri, params.position)
        index = base.index()
        if occ is None or index is None:
            return None
        places = navigate.references(index, occ, params.context.include_declaration)
        return [_location(base, p) for p in places]

    _editing(server)
    _formatting(server)
    _rename(server)


def _editing(server: RuleServer) -> None:
    @server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=["."]))
    def completion(ls: RuleServer, params: T.CompletionParams) -> T.CompletionList:
        now, nav = ls.analysis(params.text_document.uri)
        line = params.position.line + 1
        col = Lines(now.text).from_utf16(line, params.position.character)
        return T.CompletionList(is_incomplete=False, items=complete(now, nav, line, col))

    @server.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def symbols(ls: RuleServer, params: T.DocumentSymbolParams) -> list[T.DocumentSymbol]:
        now, nav = ls.analysis(params.text_document.uri)
        base = now if now.module is not None else nav
        if base is None or base.module is None:
            return []
        return outline.outline(base.module, Lines(base.text))


def _formatting(server: RuleServer) -> None:
    @server.feature(T.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: RuleServer, params: T.DocumentFormattingParams) -> list[T.TextEdit]:
        """The document laid out as `rulelang fmt` lays it out: one edit of the whole
        text, or none when it is formatted already or does not parse (its problems
        are shown as diagnostics)."""
        from rulelang.diagnostics import RuleError
        from rulelang.fmt import FormatError, format_source

        doc = ls.workspace.get_text_document(params.text_document.uri)
        try:
            formatted = format_source(doc.source, ls.path_of(doc.uri))
        except (RuleError, FormatError):
            return []
        if formatted == doc.source:
            return []
        lines = doc.source.split("\n")
        end = T.Position(line=len(lines) - 1, character=len(lines[-1].encode("utf-16-le")) // 2)
        whole = T.Range(start=T.Position(line=0, character=0), end=end)
        return [T.TextEdit(range=whole, new_text=formatted)]


def _rename(server: RuleServer) -> None:
    def places(ls: RuleServer, uri: str, pos: T.Position) -> tuple[Analysis, list[Place]]:
        base, occ = _at(ls, uri, pos)
        index = base.index()
        if occ is None or index is None or base.checker is None:
            raise JsonRpcException("no name here to rename", REQUEST_FAILED)
        try:
            return base, navigate.check_rename(base.checker, index, occ, base.path)
        except navigate.CannotRename as why:
            raise JsonRpcException(str(why), REQUEST_FAILED) from None

    @server.feature(T.TEXT_DOCUMENT_PREPARE_RENAME)
    def prepare(ls: RuleServer, params: T.PrepareRenameParams) -> T.Range | None:
        uri, pos = params.text_document.uri, params.position
        base, found = places(ls, uri, pos)
        lines = Lines(base.text)
        col = lines.from_utf16(pos.line + 1, pos.character)
        here = next((p for p in found if p.holds(pos.line + 1, col)), found[0])
        return convert.place_range(lines, here)

    @server.feature(T.TEXT_DOCUMENT_RENAME, T.RenameOptions(prepare_provider=True))
    def rename(ls: RuleServer, params: T.RenameParams) -> T.WorkspaceEdit:
        uri = params.text_document.uri
        try:
            navigate.check_new_name(params.new_name)
        except navigate.CannotRename as why:
            raise JsonRpcException(str(why), REQUEST_FAILED) from None
        base, found = places(ls, uri, params.position)
        lines = Lines(base.text)
        edits = [T.TextEdit(convert.place_range(lines, p), params.new_name) for p in found]
        return T.WorkspaceEdit(changes={uri: edits})


def _hover(ls: RuleServer, uri: str, pos: T.Position) -> T.Hover | None:
    now, _ = ls.analysis(uri)
    lines = Lines(now.text)
    col = lines.from_utf16(pos.line + 1, pos.character)
    word, start = lines.word_at(pos.line + 1, col)
    if CODE.fullmatch(word) and (text := hover_code(word)):
        return T.Hover(T.MarkupContent(T.MarkupKind.Markdown, text))
    base, occ = _at(ls, uri, pos)
    index = base.index()
    if occ is not None and index is not None:
        text = hover_symbol(index, occ.sym, base.path)
        return T.Hover(T.MarkupContent(T.MarkupKind.Markdown, text))
    if word in BUILT_IN_ATTRS and lines.get(pos.line + 1)[: start - 1].rstrip().endswith("."):
        return T.Hover(T.MarkupContent(T.MarkupKind.Markdown, BUILT_IN_ATTRS[word]))
    for d in now.diagnostics:  # on a problem's range: its code's entry
        s = d.span
        if s.file == now.path and s.line == pos.line + 1 and s.col <= col <= max(s.end_col, s.col):
            text = hover_code(d.code) or ""
            return T.Hover(T.MarkupContent(T.MarkupKind.Markdown, text)) if text else None
    return None


def serve(debounce_ms: int = DEBOUNCE_MS) -> None:
    """Serve on stdin and stdout until the editor says exit."""
    make_server(debounce_ms).start_io()

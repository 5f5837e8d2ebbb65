"""The language server, `rulelang lsp`: what an editor asks about a rule file as it is
written (diagnostics, hover, definitions, references, completion, outline, rename),
answered from the checker's own results (docs/editors.md, "Language server").

Only `server` imports pygls (the optional extra `lsp`); the other modules answer in
plain terms (files, lines, columns), so that they can be tested without a client."""

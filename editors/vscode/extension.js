// The language client of rulelang's VS Code extension: it starts `rulelang lsp` (the
// setting rulelang.server.command, "rulelang" by default, with its arguments in
// rulelang.server.args) for every rule file: problems as you type, hover, go to
// definition, completion, outline, rename, and Format Document (the server formats as
// `rulelang fmt` does). The colours need none of this: they come from the TextMate
// grammar. `npm install` in this folder fetches vscode-languageclient.
"use strict";

const vscode = require("vscode");

let client;

function settings() {
  const config = vscode.workspace.getConfiguration("rulelang");
  return {
    command: config.get("server.command", "rulelang"),
    args: config.get("server.args", []),
  };
}

exports.activate = () => {
  const { LanguageClient } = require("vscode-languageclient/node");
  const { command, args } = settings();
  client = new LanguageClient(
    "rulelang",
    "rulelang",
    { command, args: [...args, "lsp"] },
    { documentSelector: [{ language: "rulelang" }] },
  );
  return client.start();
};

exports.deactivate = () => (client ? client.stop() : undefined);

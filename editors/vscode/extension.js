// The language client of rulelang's VS Code extension: it starts `rulelang lsp` (the
// setting rulelang.server.command, "rulelang" by default, with its arguments in
// rulelang.server.args) for every rule file, and offers `rulelang fmt` as the
// formatter of a .rules document. The colours need none of this: they come from the
// TextMate grammar. `npm install` in this folder fetches vscode-languageclient.
"use strict";

const vscode = require("vscode");
const { execFile } = require("child_process");

let client;

function settings() {
  const config = vscode.workspace.getConfiguration("rulelang");
  return {
    command: config.get("server.command", "rulelang"),
    args: config.get("server.args", []),
  };
}

// `rulelang fmt -` formats its standard input; a file that does not parse is left as
// it is (the server shows why).
function formatter() {
  return {
    provideDocumentFormattingEdits(document) {
      const { command } = settings();
      return new Promise((resolve) => {
        const child = execFile(command, ["fmt", "-"], (error, stdout) => {
          if (error || stdout === document.getText()) {
            resolve([]);
            return;
          }
          const whole = new vscode.Range(
            document.positionAt(0),
            document.positionAt(document.getText().length),
          );
          resolve([vscode.TextEdit.replace(whole, stdout)]);
        });
        child.stdin.end(document.getText());
      });
    },
  };
}

exports.activate = (context) => {
  const { LanguageClient } = require("vscode-languageclient/node");
  const { command, args } = settings();
  client = new LanguageClient(
    "rulelang",
    "rulelang",
    { command, args: [...args, "lsp"] },
    { documentSelector: [{ language: "rulelang" }] },
  );
  context.subscriptions.push(
    vscode.languages.registerDocumentFormattingEditProvider(
      { language: "rulelang" },
      formatter(),
    ),
  );
  return client.start();
};

exports.deactivate = () => (client ? client.stop() : undefined);

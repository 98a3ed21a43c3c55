Content-Length: 346

{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":"file:///ws","capabilities":{"workspace":{"workspaceEdit":{"documentChanges":true},"didChangeWatchedFiles":{"dynamicRegistration":true}}},"workspaceFolders":[{"uri":"file:///ws","name":"ws"}],"initializationOptions":{"enable":true,"args":["--select","DL1,DL2"]}}}Content-Length: 52

{"jsonrpc":"2.0","method":"initialized","params":{}}Content-Length: 106

{"jsonrpc":"2.0","id":2,"method":"workspace/executeCommand","params":{"command":"devlint.checkWorkspace"}}Content-Length: 165

{"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"devlint":{"args":["--ignore","DL101","--jobs","1","--max-file-size","100000"]}}}}Content-Length: 125

{"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"devlint":{"args":["--no-such-option"]}}}}Content-Length: 208

{"jsonrpc":"2.0","method":"workspace/didChangeWatchedFiles","params":{"changes":[{"uri":"file:///ws/pkg/model.py","type":2},{"uri":"file:///ws/new.py","type":1},{"uri":"file:///ws/pyproject.toml","type":2}]}}Content-Length: 178

{"jsonrpc":"2.0","method":"workspace/didChangeWorkspaceFolders","params":{"event":{"added":[{"uri":"file:///ws/pkg","name":"pkg"}],"removed":[{"uri":"file:///ws","name":"ws"}]}}}Content-Length: 97

{"jsonrpc":"2.0","id":3,"method":"workspace/executeCommand","params":{"command":"devlint.other"}}Content-Length: 120

{"jsonrpc":"2.0","id":"four","method":"textDocument/diagnostic","params":{"textDocument":{"uri":"file:///ws/train.py"}}}Content-Length: 67

{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"four"}}Content-Length: 112

{"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"devlint":{"enable":false}}}}Content-Length: 542

{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///ws/train.py","languageId":"python","version":1,"text":"import torch\nfrom torch import nn\n\ndevice = torch.device(\"cuda\")\nx = torch.randn(4, 10)\nx.to(\"cuda\")\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(10, 2)\n\n    def forward(self, x):\n        return self.fc(x) + torch.zeros(2)\n\nmodel = Net()\nloss_fn = nn.CrossEntropyLoss(weight=torch.ones(2))\ny = model(x.to(device))\n"}}}Content-Length: 44

{"jsonrpc":"2.0","id":5,"method":"shutdown"}Content-Length: 33

{"jsonrpc":"2.0","method":"exit"}
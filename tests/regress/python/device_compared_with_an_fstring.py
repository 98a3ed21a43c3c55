import torch
rank = 0
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
if device.type == f"cuda{rank}":
    x = torch.zeros(2).to(device)
else:
    x = torch.ones(2)

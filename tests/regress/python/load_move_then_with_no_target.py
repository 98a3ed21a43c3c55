import torch
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
def f(m):
    torch.load("p")
    m.to(device)
    with open("p"):
        pass

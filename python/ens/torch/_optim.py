"""The optimizers a training step applies, as torch.optim's."""


class Adam:
    """torch.optim.Adam's update; ``lr`` a float or a tensor of M rates."""

    decoupled = False

    def __init__(self, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0):
        self.lr, self.betas, self.eps, self.weight_decay = lr, betas, eps, weight_decay


class AdamW(Adam):
    """torch.optim.AdamW's update: weight decay decoupled."""

    decoupled = True

    def __init__(self, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2):
        super().__init__(lr, betas, eps, weight_decay)


class SGD:
    """torch.optim.SGD's update with momentum and L2 weight decay."""

    def __init__(self, lr=1e-3, momentum=0.0, weight_decay=0.0):
        self.lr, self.momentum, self.weight_decay = lr, momentum, weight_decay

"""The generative objectives' KL to sparse targets (losses._targets): the dense form a GPU uses (no host
synchronisation) gives the sparse form's values and gradients, repeated (site, token) entries summed."""

from __future__ import annotations

import torch

from lingualite.losses._targets import sparse_kl


def test_dense_and_sparse_kl_agree_with_repeated_entries() -> None:
    torch.manual_seed(0)
    logits = torch.randn(4, 11, requires_grad=True)
    sites = torch.tensor([0, 0, 1, 2, 2, 2, 3, 0])
    tokens = torch.tensor([3, 3, 5, 1, 7, 1, 10, 9])  # (0, 3) and (2, 1) twice: their weights add up
    weights = torch.tensor([0.25, 0.25, 1.0, 0.2, 0.6, 0.2, 1.0, 0.5])
    results = []
    for dense in (False, True):
        log_probs = torch.log_softmax(logits, dim=-1)
        kl = sparse_kl(log_probs, sites, tokens, weights, dense=dense)
        (grad,) = torch.autograd.grad(kl.sum(), logits)
        results.append((kl.detach(), grad))
    torch.testing.assert_close(results[1][0], results[0][0], rtol=1e-6, atol=1e-6)
    torch.testing.assert_close(results[1][1], results[0][1], rtol=1e-6, atol=1e-6)
    assert results[0][0].shape == (4,)

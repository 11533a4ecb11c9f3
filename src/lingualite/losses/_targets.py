"""Shared arithmetic of the generative objectives: KL divergence to sparse label distributions."""

from __future__ import annotations

import torch


def sparse_kl(
    log_probs: torch.Tensor,
    sites: torch.Tensor,
    tokens: torch.Tensor,
    weights: torch.Tensor,
    dense: bool | None = None,
) -> torch.Tensor:
    """KL(q_s || p_s) for every site s, where q is given as (site, token, weight) triplets.

    Repeated (site, token) triplets are summed first (e.g. the masked word also occurs in the translation,
    Eq. 4), so ``sum q log q`` is the entropy of the real distribution. Returns a tensor of shape (S,).

    :param dense: build q as a dense (S, V) matrix (``index_put_`` with accumulation) instead of coalescing
        a sparse one: the same KL to float rounding, without the host synchronisation ``coalesce`` needs
        (it must learn the number of distinct entries), so a GPU step never waits. None: on CUDA only;
        the CPU keeps the sparse path and its results.
    """
    if log_probs.is_cuda if dense is None else dense:
        q = torch.zeros_like(log_probs).index_put_(
            (sites, tokens), weights.detach().to(log_probs.dtype), accumulate=True
        )
        terms = torch.where(q > 0, q * (q.clamp(min=1e-12).log() - log_probs), torch.zeros_like(q))
        return terms.sum(dim=1)
    num_sites, vocab = log_probs.shape
    q = torch.sparse_coo_tensor(
        torch.stack([sites, tokens]),
        weights.detach().to(log_probs.dtype),
        (num_sites, vocab),
        check_invariants=False,
    ).coalesce()
    (site_idx, token_idx), q_values = q.indices(), q.values()
    q_safe = q_values.clamp(min=1e-12)
    terms = q_values * (q_safe.log() - log_probs[site_idx, token_idx])
    return torch.zeros(num_sites, dtype=log_probs.dtype, device=log_probs.device).index_add(
        0, site_idx, terms
    )


def rows_bag_for_sites(
    site_rows: torch.Tensor, bag_rows: torch.Tensor, bag_tokens: torch.Tensor, bag_weights: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Copy each row's bag (its translation's tokens) to every prediction site of that row."""
    site_idx, bag_idx = (site_rows.unsqueeze(1) == bag_rows.unsqueeze(0)).nonzero(as_tuple=True)
    return site_idx, bag_tokens[bag_idx], bag_weights[bag_idx]


def require_log_probs(log_probs: torch.Tensor | None, name: str) -> torch.Tensor:
    if log_probs is None:
        raise ValueError(
            f"{name} needs prediction sites in the batch; build batches with its collator settings"
        )
    return log_probs

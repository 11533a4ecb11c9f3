"""Extreme compression (paper 002): distil a sentence-transformer teacher into a tiny multilingual student.

Multilingual knowledge distillation (Reimers & Gurevych 2020) with paper 002's two extensions: a vocabulary
trained for the target languages only (:mod:`~lingualite.tokenization.vocabulary`) and PCA on the teacher's vectors
as an extra Dense layer (:mod:`~lingualite.recipes.distill.pca`). ``train_distill(load_distill_config("distill"), "runs/x")``
runs it all; ``lingualite distill`` is the command line over it.
"""

"""Extreme compression (paper 002): distil a sentence-transformer teacher into a tiny multilingual student.

Multilingual knowledge distillation (Reimers & Gurevych 2020) with paper 002's two extensions: a vocabulary
trained for the target languages only (:mod:`~lingualite.distill.vocabulary`) and PCA on the teacher's vectors
as an extra Dense layer (:mod:`~lingualite.distill.pca`). ``distill(load_distill_config("distill"), "runs/x")``
runs it all; ``lingualite distill`` is the command line over it.
"""

from lingualite.distill.config import DistillConfig, distill_config_from_dict, load_distill_config
from lingualite.distill.loss import MultilingualMSELoss
from lingualite.distill.pca import Projection, append_to_teacher, fit_projection, projection_to_dense
from lingualite.distill.student import StudentEncoder, encode_with_student, save_student
from lingualite.distill.teacher import Teacher, encode_cached, load_teacher
from lingualite.distill.train import DistillResult, distill
from lingualite.distill.vocabulary import VocabularySample, build_vocabulary, sample_for_vocabulary

__all__ = [
    "DistillConfig",
    "DistillResult",
    "MultilingualMSELoss",
    "Projection",
    "StudentEncoder",
    "Teacher",
    "VocabularySample",
    "append_to_teacher",
    "build_vocabulary",
    "distill",
    "distill_config_from_dict",
    "encode_cached",
    "encode_with_student",
    "fit_projection",
    "load_distill_config",
    "load_teacher",
    "projection_to_dense",
    "sample_for_vocabulary",
    "save_student",
]

"""``train(config, output)``: run any recipe, chosen by the config's ``mode``, like ``lingualite train``.

The recipes: ``parallel`` (paper 000, :func:`lingualite.recipes.parallel.train_parallel.train_parallel`), ``distill``
(paper 002, :func:`lingualite.recipes.distill.train_distill.train_distill`) and ``monolingual`` (paper 001,
:func:`lingualite.recipes.monolingual.train_monolingual.train_monolingual`). Each takes the same options
(:class:`lingualite.training.run.RunOptions`) and returns a :class:`~lingualite.training.run.RunResult`.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING

from lingualite.config import RecipeConfigType, load_config
from lingualite.config.parsing import resolve_config_path
from lingualite.models.run_folder import RunFolder, warn_keys_added_since_saved

if TYPE_CHECKING:
    from lingualite.training.run import RunResult

RECIPES = {
    "parallel": ("lingualite.recipes.parallel.train_parallel", "train_parallel"),
    "distill": ("lingualite.recipes.distill.train_distill", "train_distill"),
    "monolingual": ("lingualite.recipes.monolingual.train_monolingual", "train_monolingual"),
}


def train(
    config: RecipeConfigType | str | Path,
    output: str | Path,
    data_dir: str | Path | None = None,
    **options: object,
) -> RunResult:
    """Run the recipe of ``config`` (a config object, a YAML path or a shipped name) into ``output``.

    :param data_dir: where ``{data_dir}`` in a config file's paths points (only when ``config`` is a name or
        path; default ``$LINGUALITE_DATA_DIR`` or ``data``).
    :param options: :class:`~lingualite.training.run.RunOptions`: ``resume``, ``max_steps``, ``step_scale``,
        ``stop_after``, ``progress``, ``validate``, ``threads``, ``allow_config_change``, ``smoke``.
    """
    cfg = load_recipe_config(config, data_dir) if isinstance(config, str | Path) else config
    module, name = RECIPES[cfg.mode]
    return getattr(importlib.import_module(module), name)(cfg, output, **options)


def load_recipe_config(
    config: str | Path, data_dir: str | Path | None = None, mode: str | None = None
) -> RecipeConfigType:
    """:func:`lingualite.config.load_config`, and a warning when the file is a run folder's saved config that
    lacks keys added since the run began (:func:`~lingualite.models.run_folder.warn_keys_added_since_saved`):
    re-running an old run's ``config.yaml`` takes today's defaults for them, which that run may not have used."""
    cfg = load_config(config, data_dir, mode)
    path = resolve_config_path(config)
    folder = RunFolder(path.parent)
    if folder.saved_config_path() == path and folder.is_run():
        warn_keys_added_since_saved(folder, cfg.mode)
    return cfg

"""One home for configs: YAML files validated into typed dataclasses, one per recipe, built from shared
sections (:mod:`lingualite.config.sections`).

``load_config(name_or_path)`` reads any config and returns the right recipe's class, chosen by its ``mode``
key: ``parallel`` (paper 000, the default), ``distill`` (paper 002; also a file without ``mode`` that has a
``teacher``, ``student`` or ``pca`` section)
or ``monolingual`` (paper 001). Every bad value is a one-line :class:`~lingualite.core.errors.ConfigError` naming
the file and the key, at load time.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lingualite.config.distill import DistillConfig
from lingualite.config.monolingual import MonolingualConfig
from lingualite.config.parallel import ParallelConfig
from lingualite.config.parsing import (
    from_dict,
    load_yaml,
    migrate_keys,
    resolve_config_path,
    with_data_dir,
)
from lingualite.core.errors import ConfigError

RecipeConfigType = ParallelConfig | DistillConfig | MonolingualConfig
CONFIG_CLASSES: dict[str, type[RecipeConfigType]] = {
    "parallel": ParallelConfig,
    "distill": DistillConfig,
    "monolingual": MonolingualConfig,
}

__all__ = [
    "CONFIG_CLASSES",
    "DistillConfig",
    "MonolingualConfig",
    "ParallelConfig",
    "RecipeConfigType",
    "config_from_dict",
    "config_mode",
    "load_config",
    "load_distill_config",
    "load_monolingual_config",
    "load_training_config",
    "resolve_config_path",
]


def __getattr__(name: str) -> Any:
    if name == "TrainingConfig":  # the 0.1 name, until 0.3
        import warnings

        warnings.warn(
            "TrainingConfig is deprecated and goes in 0.3; use ParallelConfig", DeprecationWarning, 2
        )
        return ParallelConfig
    raise AttributeError(f"module 'lingualite.config' has no attribute {name!r}")


def _mode_of(data: dict[str, Any], where: str) -> str:
    mode = data.get("mode")
    if mode is None:  # configs written before the key existed
        mode = "distill" if {"teacher", "student", "pca"} & set(data) else "parallel"
    if not isinstance(mode, str) or mode not in CONFIG_CLASSES:
        raise ConfigError(f"{where}: mode must be one of {sorted(CONFIG_CLASSES)}, got {mode!r}")
    return str(mode)


def config_from_dict(
    data: dict[str, Any] | None,
    where: str = "config",
    mode: str | None = None,
    data_dir: str | Path | None = None,
) -> RecipeConfigType:
    """Validate a mapping (e.g. parsed YAML) into its recipe's config; errors name ``where.key``.

    :param mode: expect this recipe (an error if the mapping names another); default: from the mapping.
    """
    data = dict(data or {})
    found = _mode_of(data, where)
    if mode is not None and found != mode and "mode" in data:
        raise ConfigError(f"{where}: is a {found} config, expected a {mode} config")
    mode = mode or found
    data["mode"] = mode
    cfg = from_dict(CONFIG_CLASSES[mode], migrate_keys(data, mode, where), where)
    cfg.check(where)
    return with_data_dir(cfg, data_dir)


def load_config(
    name_or_path: str | Path, data_dir: str | Path | None = None, mode: str | None = None
) -> RecipeConfigType:
    """Any recipe's config from a YAML file or a shipped name; ``{data_dir}`` in its paths becomes
    ``data_dir`` (default ``$LINGUALITE_DATA_DIR`` or ``data``)."""
    path = resolve_config_path(name_or_path)
    return config_from_dict(load_yaml(path), str(path), mode, data_dir)


def config_mode(name_or_path: str | Path) -> str:
    """The recipe a config file is for: ``parallel``, ``distill`` or ``monolingual``."""
    path = resolve_config_path(name_or_path)
    return _mode_of(load_yaml(path), str(path))


def load_training_config(name_or_path: str | Path, data_dir: str | Path | None = None) -> ParallelConfig:
    """A parallel (paper 000) config: ``quickstart``, ``paper`` or a YAML file."""
    return load_config(name_or_path, data_dir, "parallel")  # type: ignore[return-value]


def load_distill_config(
    name_or_path: str | Path = "distill", data_dir: str | Path | None = None
) -> DistillConfig:
    """A distillation (paper 002) config: ``distill``, ``distill-static`` or a YAML file."""
    return load_config(name_or_path, data_dir, "distill")  # type: ignore[return-value]


def load_monolingual_config(
    name_or_path: str | Path = "monolingual", data_dir: str | Path | None = None
) -> MonolingualConfig:
    """A monolingual (paper 001) config: ``monolingual`` or a YAML file."""
    return load_config(name_or_path, data_dir, "monolingual")  # type: ignore[return-value]

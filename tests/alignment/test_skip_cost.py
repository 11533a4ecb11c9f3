"""The cost of a skip is estimated from unrelated pairs (issue 41, item 6). It was a quantile over all n x m
pairs, true matches included: on short or repetitive documents it fell to the cost of a correct match, and
correct lines were skipped (5 lines against themselves: 0 of 5 aligned; a 5-line translation: 3 of 5
skipped). Checked with a real model on short, long, repetitive and translated documents."""

from __future__ import annotations

import numpy as np
import pytest

from lingualite.alignment.dp import VecalignConfig, align_texts, align_vectors

EN = [
    "The printer is out of paper.",
    "Click the button to save the document.",
    "The meeting starts at nine tomorrow morning.",
    "My brother lives in a small village near the sea.",
    "Please close the window before you leave.",
    "This function returns the number of selected cells.",
    "The weather was cold and rainy all week.",
    "She bought three apples and a loaf of bread.",
    "You can change the font size in the settings menu.",
    "The train to Paris was delayed by an hour.",
    "Our team won the match last Sunday.",
    "The file could not be opened because it is damaged.",
    "He reads a newspaper every morning with his coffee.",
    "Insert a new row above the current one.",
    "The museum is closed on Mondays.",
    "We need more time to finish the project.",
    "The children are playing in the garden.",
    "Select the text you want to copy.",
    "The doctor told him to rest for a few days.",
    "The price of petrol has risen again.",
]
FR = [
    "L'imprimante n'a plus de papier.",
    "Cliquez sur le bouton pour enregistrer le document.",
    "La réunion commence à neuf heures demain matin.",
    "Mon frère habite dans un petit village près de la mer.",
    "Veuillez fermer la fenêtre avant de partir.",
    "Cette fonction renvoie le nombre de cellules sélectionnées.",
    "Le temps a été froid et pluvieux toute la semaine.",
    "Elle a acheté trois pommes et une miche de pain.",
    "Vous pouvez modifier la taille de la police dans le menu des paramètres.",
    "Le train pour Paris a eu une heure de retard.",
    "Notre équipe a gagné le match dimanche dernier.",
    "Le fichier n'a pas pu être ouvert car il est endommagé.",
    "Il lit un journal chaque matin avec son café.",
    "Insérez une nouvelle ligne au-dessus de la ligne actuelle.",
    "Le musée est fermé le lundi.",
    "Nous avons besoin de plus de temps pour terminer le projet.",
    "Les enfants jouent dans le jardin.",
    "Sélectionnez le texte que vous voulez copier.",
    "Le médecin lui a dit de se reposer quelques jours.",
    "Le prix de l'essence a encore augmenté.",
]
REP_EN = [line for i in range(10) for line in (EN[i], "Yes.", "Click OK.")]
REP_FR = [line for i in range(10) for line in (FR[i], "Oui.", "Cliquez sur OK.")]
UNRELATED = "Saturn has dozens of moons and a system of icy rings."


@pytest.fixture(scope="module")
def small():
    pytest.importorskip("lingualite_models", reason="pip install ./packages/lingualite-models")
    from lingualite.encoders.resolve import load_encoder

    return load_encoder("lingualite-small")


def _diagonal(alignment) -> int:
    return sum(1 for s, t, _ in alignment if len(s) == 1 and len(t) == 1 and s[0] == t[0])


@pytest.mark.parametrize(
    "src, tgt",
    [
        (EN[:5], EN[:5]),  # short, against itself
        (EN[:5], FR[:5]),  # short translation
        (EN[:3], FR[:3]),
        (EN, FR),  # 20 lines
        (EN + FR, EN + FR),  # 40 lines against themselves
        (EN + EN[::-1], FR + FR[::-1]),  # every sentence twice
        (REP_EN, REP_EN),  # repetitive: two lines repeated 10 times
        (REP_EN, REP_FR),
    ],
    ids=["5-self", "5-translation", "3-translation", "20-translation", "40-self", "40-twice", "30-repetitive-self",
         "30-repetitive-translation"],
)  # fmt: skip
def test_every_line_of_a_translation_is_aligned(small, src: list[str], tgt: list[str]) -> None:
    alignment = align_texts(src, tgt, small, VecalignConfig())
    assert _diagonal(alignment) == len(src), [(s, t) for s, t, _ in alignment if len(s) != 1 or len(t) != 1]


def test_an_unrelated_line_is_still_skipped(small) -> None:
    alignment = align_texts(EN[:10], [*FR[:5], UNRELATED, *FR[5:10]], small, VecalignConfig())
    assert [(s, t) for s, t, _ in alignment if len(s) != 1 or len(t) != 1] == [((), (5,))]
    alignment = align_texts([*EN[:5], UNRELATED, *EN[5:10]], FR[:10], small, VecalignConfig())
    assert [(s, t) for s, t, _ in alignment if len(s) != 1 or len(t) != 1] == [((5,), ())]


def test_long_documents_align_every_line() -> None:
    """Long (600 x 610 lines: the banded programme): random unit vectors, translations as perturbations, ten
    unrelated lines inserted in the target. No source line is skipped and each lands with its translation
    (the inserted lines join a neighbour's block, as they did before: random vectors make that cheap)."""
    rng = np.random.default_rng(0)
    src = rng.normal(size=(600, 64)).astype(np.float32)
    tgt = src + 0.3 * rng.normal(size=src.shape).astype(np.float32)
    noise_at = set(rng.choice(600, 10, replace=False).tolist())
    rows, where = [], {}
    for i in range(600):
        if i in noise_at:
            rows.append(rng.normal(size=64).astype(np.float32))
        where[i] = len(rows)
        rows.append(tgt[i])
    alignment = align_vectors(src, np.vstack(rows), VecalignConfig(exact_cells=50_000))
    assert all(where[i] in t for s, t, _ in alignment for i in s)
    assert sum(len(s) for s, t, _ in alignment if t) == 600
    plain = align_vectors(src, tgt, VecalignConfig(exact_cells=50_000))
    assert sum(1 for s, t, _ in plain if len(s) == 1 and len(t) == 1 and s[0] == t[0]) == 600


def test_one_line_each_and_identical_vectors_do_not_break_the_estimate() -> None:
    one = np.ones((1, 8), dtype=np.float32)
    assert [(s, t) for s, t, _ in align_vectors(one, one)] == [((0,), (0,))]
    same = np.ones((4, 8), dtype=np.float32)
    assert sum(1 for s, t, _ in align_vectors(same, same) if s and t) >= 2

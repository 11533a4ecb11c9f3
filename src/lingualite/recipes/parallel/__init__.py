"""The parallel recipe (paper 000, Mao et al.): a 2-layer dual transformer with shared weights trained on
parallel sentences with UGT + sentence alignment + sentence similarity. Run it with
``lingualite train --config quickstart`` or ``lingualite.train(load_config("quickstart"), "runs/x")``.
"""

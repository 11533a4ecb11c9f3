"""Vector maths on encoded sentences: retrieval scores and exact top-k, Matryoshka truncation, normalisation,
precision (quantization) and writing vectors to a ``.npy``."""

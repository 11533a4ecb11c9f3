"""Text handling that depends on the script: which script a letter belongs to, sentence boundaries, lengths."""

from lingualite.text.scripts import script_of, script_units
from lingualite.text.segmentation import join_lines, length_units, split_sentences

__all__ = ["join_lines", "length_units", "script_of", "script_units", "split_sentences"]

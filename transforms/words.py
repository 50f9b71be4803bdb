"""English words: whether two close spellings are two words, or one word and a slip of the pen.

Beside a placeholder abstract ("No abstract available.") only the titles tell two papers apart,
and a word replaced by one spelled close to it is either a typo fixed by a revision ("Lerning" /
"Learning") or the same authors' template filled in twice ("... Encoder ..." / "... Decoder ...",
"Online" / "Offline", "Maximization" / "Minimization"). Spelling alone cannot tell them apart; a
word list can: both words in common English use (wordfreq's frequencies, which know
"encoder" and "offline" and not "lerning"), of like frequency (a typo that happens to be a word is
seldom as common as the word it slipped from: "learning" / "leaning"), and not one word's forms
(Snowball stems, British spelling read as American: "extraction" / "extractive", "optimisation" /
"optimization"). Measured on ICML 2025's title words (`python -m eval.titles_only --close`).
"""

from __future__ import annotations

import re
from functools import lru_cache

# A word of at least this zipf frequency (log10 per billion words: 1 is once per 100 million) is
# in common use; a typo that happens to be a word ("leaning") is rarer than the word it slipped
# from by more than KNOWN_GAP.
KNOWN_ZIPF = 1.0
KNOWN_GAP = 2.0
MIN_LETTERS = 4  # a shorter word is another word by one letter too often ("ore" / "more")
PREFIX_LETTERS = 2  # "code" / "decode", "gradient" / "subgradient", "search" / "funsearch"

# British spellings as American ones, so that they stem alike ("optimisation", "modelling").
_BRITISH = [(r"isation", "ization"), (r"is(e|ed|es|ing|er|ers)$", r"iz\1"), (r"ys(e|ed|es|ing)$", r"yz\1"),
            (r"our(s|ed|ing|ful|less|ite|ites)?$", r"or\1"), (r"([^aeiou])re(s|d)?$", r"\1er\2"),
            (r"ll(ed|ing|er|ers)$", r"l\1"), (r"ogue(s)?$", r"og\1"), (r"ae", "e"), (r"oe", "e"),
            (r"ence(s)?$", r"ense\1")]


def other_english_word(a: str, b: str) -> bool:
    """Whether two folded words (lower case, no accents) are two English words in common use, of
    like frequency, neither a form of the other, or a word in common use and the word with a
    prefix: "encoder" / "decoder", "gradient" / "subgradient" yes; "lerning" / "learning",
    "network" / "networks", "optimisation" / "optimization" no."""
    if min(len(a), len(b)) < MIN_LETTERS or a == b:
        return False
    short, long = sorted((a, b), key=len)
    if long.endswith(short) and len(long) - len(short) >= PREFIX_LETTERS:
        return _zipf(short) >= KNOWN_ZIPF  # a word with a prefix: a typo never adds two letters in front
    za, zb = _zipf(a), _zipf(b)
    if min(za, zb) < KNOWN_ZIPF or abs(za - zb) > KNOWN_GAP:
        return False
    sa, sb = _stem(a), _stem(b)
    return not (sa.startswith(sb) or sb.startswith(sa))


def one_word(a: str, b: str) -> bool:
    """Whether two folded words are forms of one word (Snowball stems, British spelling read as
    American): "summarization" / "summarisation", "summarizing" / "summarising"."""
    return a == b or _stem(a) == _stem(b)


@lru_cache(maxsize=65536)
def _zipf(word: str) -> float:
    from wordfreq import zipf_frequency  # loads its English list (~0.4 s): only when a pair asks

    return zipf_frequency(word, "en")


@lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    for pattern, american in _BRITISH:
        word = re.sub(pattern, american, word)
    return _stemmer().stemWord(word)


@lru_cache(maxsize=1)
def _stemmer():
    import snowballstemmer

    return snowballstemmer.stemmer("english")

"""The resolver's MinHash signatures and anchor texts of many abstracts in one compiled pass.

`transforms.resolve.block_keys` computes, for each paper, the MinHash of its match text's word
3-shingles and the text's first and last `ANCHOR_WORDS` words. Done with Polars and numpy, a
chunk of 5,000 abstracts is folded by regex passes, split and exploded into ~1M word strings,
hashed, shingled and permuted 60 times as whole-column passes: ~60 µs of CPU per paper, the
resolver's largest cost on a first load of many distinct papers. Here (numba, compiled once and
cached on disk) each text is read once, byte by byte: words are cut, lower-cased and hashed
(XXH3-64, as `stable_hash64`), shingled and MinHashed in one loop, with the same arithmetic, so
the signatures and anchors are the same values (`tests/test_signatures.py` checks both paths
on every kind of text). The stored block keys therefore keep their scheme.

What the loop reads is the abstract after `normalize_math`, folded by `fold_key` only where it
holds a non-ASCII character: on ASCII text, `fold_key`'s words are exactly the runs of ASCII
letters and digits, lower-cased, which the loop cuts itself. A word longer than
`MAX_WORD_BYTES` (XXH3's long-input paths are not written here) marks its text for the numpy
path instead.

Loading the compiled code costs ~1.5 s per process (numba's import and its cache; compiling it,
~6-10 s here, happens once: `make` does it at install), so runs with few new papers keep the numpy path
(`COMPILED_MIN_PAPERS`, flows/resolve.py).
"""

from __future__ import annotations

import numba as nb
import numpy as np
import pyarrow as pa

# XXH3's default secret (xxHash's XXH3_kSecret, 192 bytes): its 64- and 32-bit little-endian
# words at the offsets the short-input paths (0 to 128 bytes) read.
_SECRET = bytes.fromhex(
    "b8fe6c3923a44bbe7c01812cf721ad1c" "ded46de9839097db7240a4a4b7b3671f" "cb79e64eccc0e578825ad07dccff7221"
    "b8084674f743248ee03590e6813a264c" "3c2852bb91c300cb88d0658b1b532ea3" "71644897a20df94e3819ef46a9deacd8"
    "a8fa763fe39c343ff9dcbbc7c70b4f1d" "8a51e04bcdb45931c89f7ec9d9787364" "eac5ac8334d3ebc3c581a0fffa1363eb"
    "170ddd51b7f0da49d316552629d4689e" "2b16be587d47a1fc8ff8b8d17ad031ce" "45cb3a8f95160428afd7fbcabb4b407e"
)
_SECRET64 = np.frombuffer(_SECRET, dtype="<u8").astype(np.uint64)
_SECRET32 = np.frombuffer(_SECRET, dtype="<u4").astype(np.uint64)

MAX_WORD_BYTES = 128  # XXH3's 0-128-byte paths below; longer words go the numpy way

_U = np.uint64
_M32 = _U(0xFFFFFFFF)
PRIME64_1, PRIME64_2, PRIME64_3 = _U(0x9E3779B185EBCA87), _U(0xC2B2AE3D27D4EB4F), _U(0x165667B19E3779F9)
PRIME_MX1, PRIME_MX2 = _U(0x165667919E3779F9), _U(0x9FB21C651E98DF25)
# transforms.resolve._shingle_hashes' multipliers (0x9E3779B97F4A7C15 + 2 * i) and mixers
SHINGLE_M1, SHINGLE_M2 = _U(0x9E3779B97F4A7C17), _U(0x9E3779B97F4A7C19)


@nb.njit(cache=True, inline="always")
def _read_le(buf, i, n_bytes):
    """The little-endian number in buf[i:i + n_bytes] (4 or 8 bytes)."""
    v = _U(0)
    for k in range(n_bytes):
        v |= _U(buf[i + k]) << _U(8 * k)
    return v


@nb.njit(cache=True, inline="always")
def _mul128_fold64(a, b):
    """Low and high 64 bits of the 128-bit product a * b, xor-ed (from 32-bit halves)."""
    a_lo, a_hi, b_lo, b_hi = a & _M32, a >> _U(32), b & _M32, b >> _U(32)
    lo_lo, hi_lo, lo_hi, hi_hi = a_lo * b_lo, a_hi * b_lo, a_lo * b_hi, a_hi * b_hi
    cross = (lo_lo >> _U(32)) + (hi_lo & _M32) + lo_hi
    upper = (hi_lo >> _U(32)) + (cross >> _U(32)) + hi_hi
    lower = (cross << _U(32)) | (lo_lo & _M32)
    return lower ^ upper


@nb.njit(cache=True, inline="always")
def _xxh64_avalanche(h):
    h ^= h >> _U(33)
    h *= PRIME64_2
    h ^= h >> _U(29)
    h *= PRIME64_3
    return h ^ (h >> _U(32))


@nb.njit(cache=True, inline="always")
def _xxh3_avalanche(h):
    h ^= h >> _U(37)
    h *= PRIME_MX1
    return h ^ (h >> _U(32))


@nb.njit(cache=True, inline="always")
def _rotl64(h, r):
    return (h << _U(r)) | (h >> _U(64 - r))


@nb.njit(cache=True)
def xxh3_64(buf, n, secret64, secret32):
    """XXH3-64 (seed 0) of buf[:n], for n <= MAX_WORD_BYTES: `stable_hash64` of those bytes.
    secret64[j] is the secret's 64-bit word at byte 8 j, secret32[j] its 32-bit word at byte 4 j."""
    if n == 0:
        return _xxh64_avalanche(secret64[7] ^ secret64[8])
    if n <= 3:
        combined = (_U(buf[0]) << _U(16)) | (_U(buf[n >> 1]) << _U(24)) | _U(buf[n - 1]) | (_U(n) << _U(8))
        return _xxh64_avalanche(combined ^ (secret32[0] ^ secret32[1]))
    if n <= 8:
        keyed = (_read_le(buf, n - 4, 4) + (_read_le(buf, 0, 4) << _U(32))) ^ (secret64[1] ^ secret64[2])
        h = keyed ^ _rotl64(keyed, 49) ^ _rotl64(keyed, 24)
        h *= PRIME_MX2
        h ^= (h >> _U(35)) + _U(n)
        h *= PRIME_MX2
        return h ^ (h >> _U(28))
    if n <= 16:
        lo = _read_le(buf, 0, 8) ^ (secret64[3] ^ secret64[4])
        hi = _read_le(buf, n - 8, 8) ^ (secret64[5] ^ secret64[6])
        swapped = _U(0)
        for k in range(8):  # byte swap of lo
            swapped |= ((lo >> _U(8 * k)) & _U(0xFF)) << _U(56 - 8 * k)
        return _xxh3_avalanche(_U(n) + swapped + hi + _mul128_fold64(lo, hi))
    acc = _U(n) * PRIME64_1
    rounds = (n - 1) // 32  # 17-128 bytes: pairs of 16-byte lanes from both ends
    for i in range(rounds, -1, -1):
        acc += _mul128_fold64(_read_le(buf, 16 * i, 8) ^ secret64[4 * i], _read_le(buf, 16 * i + 8, 8) ^ secret64[4 * i + 1])
        acc += _mul128_fold64(_read_le(buf, n - 16 * (i + 1), 8) ^ secret64[4 * i + 2],
                              _read_le(buf, n - 16 * (i + 1) + 8, 8) ^ secret64[4 * i + 3])
    return _xxh3_avalanche(acc)


@nb.njit(cache=True, inline="always")
def _fmix64(h):
    h ^= h >> _U(33)
    h *= _U(0xFF51AFD7ED558CCD)
    h ^= h >> _U(33)
    h *= _U(0xC4CEB9FE1A85EC53)
    return h ^ (h >> _U(33))


@nb.njit(cache=True, inline="always")
def _fmix32(h):
    """transforms.resolve._fmix32 of a 32-bit value held in a uint64 (each product cut to 32 bits)."""
    h ^= h >> _U(16)
    h = (h * _U(0x85EBCA6B)) & _M32
    h ^= h >> _U(13)
    h = (h * _U(0xC2B2AE35)) & _M32
    return h ^ (h >> _U(16))


@nb.njit(cache=True, inline="always")
def _is_word_byte(c):
    """Letters and digits of ASCII, and any byte of a multi-byte character (non-ASCII text has
    been folded to letters, digits and spaces before it gets here)."""
    return (c >= 48 and c <= 57) or (c >= 97 and c <= 122) or (c >= 65 and c <= 90) or c >= 128


@nb.njit(cache=True, nogil=True)
def _signatures(offsets, data, a, b, anchor_words, secret64, secret32):
    """Per text: the MinHash (len(a) values), its first and last anchor_words words joined by
    spaces (written into prefix/suffix byte buffers with their offsets), and whether a word was
    too long to hash here."""
    n_texts, k = len(offsets) - 1, len(a)
    sig = np.empty((n_texts, k), dtype=np.uint32)
    too_long = np.zeros(n_texts, dtype=np.bool_)
    prefix, suffix = np.empty(len(data), dtype=np.uint8), np.empty(len(data), dtype=np.uint8)
    prefix_at, suffix_at = np.zeros(n_texts + 1, dtype=np.int64), np.zeros(n_texts + 1, dtype=np.int64)
    word = np.empty(MAX_WORD_BYTES, dtype=np.uint8)
    longest = 0
    for t in range(n_texts):
        longest = max(longest, offsets[t + 1] - offsets[t])
    hashes = np.empty(longest // 2 + 2, dtype=np.uint32)  # one text's shingles: L bytes hold L // 2 + 1 words
    # where a text's first and its last anchor_words words start and end (the last: a ring)
    ring = max(anchor_words, 1)
    head_starts, head_ends = np.empty(ring, dtype=np.int64), np.empty(ring, dtype=np.int64)
    tail_starts, tail_ends = np.empty(ring, dtype=np.int64), np.empty(ring, dtype=np.int64)
    p_len, s_len = 0, 0
    for t in range(n_texts):
        lo, hi = offsets[t], offsets[t + 1]
        n_words, n_shingles, i = 0, 0, lo
        h0, h1 = _U(0), _U(0)
        while i < hi:
            while i < hi and not _is_word_byte(data[i]):
                i += 1
            if i >= hi:
                break
            start, length = i, 0
            while i < hi and _is_word_byte(data[i]):
                c = data[i]
                if length < MAX_WORD_BYTES:
                    word[length] = c + 32 if c >= 65 and c <= 90 else c
                length += 1
                i += 1
            if length > MAX_WORD_BYTES:
                too_long[t] = True
                break
            hw = xxh3_64(word, length, secret64, secret32)
            if n_words < ring:
                head_starts[n_words], head_ends[n_words] = start, i
            tail_starts[n_words % ring], tail_ends[n_words % ring] = start, i
            n_words += 1
            if n_words >= 3:  # the shingle of the last three words
                hashes[n_shingles] = _fmix32(_fmix64((h0 * SHINGLE_M1 + h1) * SHINGLE_M2 + hw) & _M32)
                n_shingles += 1
            h0, h1 = h1, hw
        if too_long[t]:
            for j in range(k):
                sig[t, j] = np.uint32(0xFFFFFFFF)
            prefix_at[t + 1], suffix_at[t + 1] = p_len, s_len
            continue
        if n_shingles == 0 and n_words > 0:  # fewer than three words: one shingle of them all
            first = h1 if n_words == 1 else h0
            second = _U(0) if n_words == 1 else h1
            hashes[0] = _fmix32(_fmix64((first * SHINGLE_M1 + second) * SHINGLE_M2) & _M32)
            n_shingles = 1
        for j in range(k):
            aj, bj = a[j], b[j]
            best = _M32
            for q in range(n_shingles):  # uint32 wraparound (mod 2^32), as datasketch
                v = (hashes[q] * aj + bj) & _M32
                best = min(best, v)
            sig[t, j] = best
        p_len = _write_words(data, head_starts, head_ends, 0, min(n_words, anchor_words), prefix, p_len)
        s_len = _write_words(data, tail_starts, tail_ends, max(n_words - anchor_words, 0), n_words, suffix, s_len)
        prefix_at[t + 1], suffix_at[t + 1] = p_len, s_len
    return sig, too_long, prefix[:p_len], prefix_at, suffix[:s_len], suffix_at


@nb.njit(cache=True, inline="always")
def _write_words(data, starts, ends, first, last, out, at):
    """Words first..last-1 of the text (word w where starts/ends[w % len(starts)] say), lower-cased,
    joined by single spaces, appended at out[at:]."""
    for w in range(first, last):
        if w > first:
            out[at] = 32
            at += 1
        for i in range(starts[w % len(starts)], ends[w % len(starts)]):
            c = data[i]
            out[at] = c + 32 if c >= 65 and c <= 90 else c
            at += 1
    return at


def signatures(texts: pa.LargeStringArray, a: np.ndarray, b: np.ndarray, anchor_words: int):
    """(MinHash (n, len(a)) uint32, prefix texts, suffix texts, too_long mask) of `texts`
    (abstracts after normalize_math, non-ASCII ones folded; nulls read as empty)."""
    texts = texts.fill_null("")
    offsets = np.frombuffer(texts.buffers()[1], dtype=np.int64)[texts.offset: texts.offset + len(texts) + 1]
    data_buffer = texts.buffers()[2]
    data = np.frombuffer(data_buffer, dtype=np.uint8) if data_buffer is not None else np.zeros(0, dtype=np.uint8)
    sig, too_long, prefix, prefix_at, suffix, suffix_at = _signatures(
        offsets, data, a.astype(np.uint64), b.astype(np.uint64), anchor_words, _SECRET64, _SECRET32)
    return sig, _strings(prefix, prefix_at), _strings(suffix, suffix_at), too_long


def _strings(data: np.ndarray, offsets: np.ndarray) -> pa.LargeStringArray:
    return pa.LargeStringArray.from_buffers(len(offsets) - 1, pa.py_buffer(offsets), pa.py_buffer(data))


if __name__ == "__main__":  # `make` compiles the code into numba's cache once, as pip compiles .pyc files
    signatures(pa.array(["Warm up"], pa.large_string()), np.ones(1, np.uint32), np.zeros(1, np.uint32), 1)

"""Chinese names in a GBK listing: `python -m eval.gbk_names`.

Another checkout's decoder on the same files: `cd /tmp && PYTHONPATH=<checkout> python
<this repo>/eval/gbk_names.py`.

A bundled listing (data/samples/000_...) with k generated Chinese names (a common surname and one
or two given-name characters, many of them GB2312 level 2: "婷", "璐", "睿", as names are written
today) opening its first record's author line, written in GBK, 300 files per k, decoded by
`transforms.decode.decode_bytes`. Each comes out right (the names read back), quarantined (the
line kept only its ASCII or holds U+FFFD) or wrong (another script's letters: mojibake that loads).
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

from transforms.decode import REPLACEMENT, decode_bytes

SURNAMES = ("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜"
            "崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤")
GIVEN = ("伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰萍鹏辉建红梅琳飞鑫宇浩凯健俊帆帅旭宁龙林欣晨阳博文天泽瑞轩"
         "子涵梓萱琪钰婷璐瑶昊曦婕晗璇睿铭嘉懿")
SAMPLE = Path(__file__).resolve().parent.parent / "data" / "samples" / "000_2fe0bc6f923800c6.txt"
FILES = 300


def chinese_name(rng: random.Random) -> str:
    return rng.choice(SURNAMES) + "".join(rng.choice(GIVEN) for _ in range(rng.choice([1, 2, 2])))


def outcomes(k: int, seed: int = 1) -> Counter:
    """right / quarantined / wrong (with the encoding read) over FILES files of k names."""
    rng = random.Random(seed)
    lines = SAMPLE.read_text(encoding="utf-8").split("\n")
    out: Counter = Counter()
    for _ in range(FILES):
        written = [*lines]
        written[3] = ", ".join(chinese_name(rng) for _ in range(k)) + ", " + lines[3]  # the first authors line
        decoded = decode_bytes("\n".join(written).encode("gbk"))
        got = decoded.text.split("\n")[3]
        kind = ("right" if got == written[3] else "quarantined" if REPLACEMENT in got or got.isascii() else "wrong")
        out[f"{kind} ({decoded.encoding})" if kind == "wrong" else kind] += 1
    return out


def main() -> None:
    print(f"| names per file | right | quarantined | wrong (read as) |\n|---:|---:|---:|---|")
    for k in (1, 2, 3, 5):
        c = outcomes(k)
        wrong = ", ".join(f"{n} {kind[7:-1]}" for kind, n in sorted(c.items()) if kind.startswith("wrong"))
        print(f"| {k} | {c['right']} | {c['quarantined']} | {sum(n for kind, n in c.items() if kind.startswith('wrong'))}"
              f"{' (' + wrong + ')' if wrong else ''} |")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Draw the tile faces the vendored riichi set lacks, in its style (run once; the SVGs are kept).

The riichi faces beside this script are FluffyStuff's public-domain set (SOURCE.md, LICENSE.md):
300x400 pictures without the tile's body, which the viewer draws (viewer.css). Ùzje mahjong
(docs/variants/uzje.md) plays with circles (tongs), bamboos (socks) and characters (mans) of
ranks 1 to 16, a zero, compressed winds and eight flowers; ranks 1-9, the four winds and the
three dragons (Ùzje's arrows) are the set's own faces. This script draws the others, reusing
the set's own strokes where it can:

- ``Man10.svg`` .. ``Man16.svg``: the Chinese numeral (十, 十一 .. 十六) over 萬, as Man1-9. 十 is
  made of the brush stroke of 一 (Man1) twice, the second turned upright; 一 .. 六 are the
  set's numerals, and 萬 is Man1's.
- ``Pin10.svg`` .. ``Pin16.svg``, ``Sou10.svg`` .. ``Sou16.svg``: the rank in Arabic figures
  (in the suit's navy or green) over the suit's emblem, Pin1's circle or one of Sou2's
  bamboos: ten to sixteen circles or sticks do not read at a glance at a tile's size.
- ``Zero.svg``: the ideographic zero (U+3007) as a brush draws it (the zero, ``Z``, and the
  zero used as a number, ``0t`` ...).
- ``EastWest.svg`` (``H``) and ``SouthNorth.svg`` (``V``): the two winds a compressed wind stands
  for, side by side (horizontal) or one over the other (vertical), from the set's wind faces.
- ``Spring.svg`` .. ``Winter.svg`` (``h i j k``) and ``Plum.svg``, ``Orchid.svg``,
  ``Chrysanthemum.svg``, ``Bamboo.svg`` (``o p q r``, the flowers one to four): a picture and,
  in the corner, the number of the seat the flower belongs to (1 East .. 4 North), red for
  the seasons and blue for the numbered flowers.

Run it from anywhere: ``python replay/static/replay/tiles/make_faces.py``. It reads and writes
only this folder, and needs nothing beyond the standard library.
"""

from __future__ import annotations

import copy
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
ET.register_namespace("", SVG)
ET.register_namespace("xlink", XLINK)

WIDTH, HEIGHT = 300, 400
#: The set's colours (read from its files).
NAVY, RED, GREEN, BLUE, BLACK, BROWN = (
    "#000037",
    "#b93c3c",
    "#004900",
    "#19328c",
    "#000000",
    "#822600",
)

#: Bounding boxes of parts of the set's faces, in the faces' 300x400 space (measured once in
#: a browser with getBoundingClientRect): the black numeral of each character tile, 萬, the
#: winds, Pin1's circle and Sou2's upper bamboo.
NUMERAL_BOXES = {
    1: (43, 49, 257, 96),
    2: (47, 19, 271, 126),
    3: (51, 1, 262, 142),
    4: (25, 14, 273, 122),
    5: (28, 3, 264, 149),
    6: (32, 4, 261, 148),
}
MAN_BOX = (37, 144, 261, 378)
WIND_BOXES = {
    "Ton": (10, 7, 290, 394),
    "Nan": (23, 23, 277, 378),
    "Shaa": (23, 62, 276, 338),
    "Pei": (10, 59, 291, 322),
}
PIN1_BOX = (7, 57, 293, 343)
SOU_STICK_BOX = (107, 9, 192, 203)

Box = tuple[float, float, float, float]


# -- borrowing parts of the set's faces -----------------------------------------------------------


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _clean(element: ET.Element) -> None:
    """Drop Inkscape's and Sodipodi's elements and attributes (only SVG and XLink stay)."""
    for child in list(element):
        if not child.tag.startswith("{" + SVG + "}"):
            element.remove(child)
        else:
            _clean(child)
    for name in list(element.attrib):
        if name.startswith("{") and not name.startswith("{" + XLINK + "}"):
            del element.attrib[name]


def _fill(element: ET.Element) -> str | None:
    match = re.search(r"fill:(#[0-9a-fA-F]{6})", element.get("style", ""))
    return match.group(1).lower() if match else element.get("fill")


SHAPES = {"path", "ellipse", "circle", "rect", "use", "polygon", "polyline", "line"}


def _prune(element: ET.Element, keep_fill: str | None, only: str | None) -> bool:
    """Keep the shapes of one fill colour (and/or the subtree of one id); drop empty groups.
    Returns whether the element keeps anything."""
    if only is not None and element.get("id") == only:
        return _prune(element, keep_fill, None)
    kept = False
    for child in list(element):
        name = _local(child.tag)
        if name == "defs":
            continue
        if name in SHAPES:
            ok = only is None and (keep_fill is None or _fill(child) == keep_fill)
        else:
            ok = _prune(child, keep_fill, only)
        if ok:
            kept = True
        else:
            element.remove(child)
    return kept


def borrow(
    name: str, prefix: str, keep_fill: str | None = None, only: str | None = None
) -> ET.Element:
    """The picture of one of the set's faces as a group (its defs included), its ids prefixed
    so that several borrowed pictures live in one file."""
    root = ET.parse(HERE / f"{name}.svg").getroot()
    _clean(root)
    group = ET.Element(f"{{{SVG}}}g")
    for child in root:
        if _local(child.tag) in ("defs", "g"):
            group.append(copy.deepcopy(child))
    for child in group:
        if _local(child.tag) == "g":
            _prune(child, keep_fill and keep_fill.lower(), only)
    ids = {element.get("id") for element in group.iter() if element.get("id")}
    for element in group.iter():
        if own_id := element.get("id"):
            element.set("id", prefix + own_id)
        for attribute, value in list(element.attrib.items()):
            new = re.sub(
                r"url\(#([^)]+)\)",
                lambda m: f"url(#{prefix + m.group(1)})" if m.group(1) in ids else m.group(0),
                value,
            )
            if (
                attribute in (f"{{{XLINK}}}href", "href")
                and value.startswith("#")
                and value[1:] in ids
            ):
                new = "#" + prefix + value[1:]
            element.set(attribute, new)
    return group


def fit(element: ET.Element, source: Box, target: Box, rotate: float = 0) -> ET.Element:
    """Wrap the element in a group that scales ``source`` uniformly into ``target``, centred
    (optionally turned by ``rotate`` degrees about the source's centre first)."""
    sx0, sy0, sx1, sy1 = source
    tx0, ty0, tx1, ty1 = target
    width, height = sx1 - sx0, sy1 - sy0
    if rotate % 180:
        width, height = height, width
    scale = min((tx1 - tx0) / width, (ty1 - ty0) / height)
    cx, cy = (sx0 + sx1) / 2, (sy0 + sy1) / 2
    tcx, tcy = (tx0 + tx1) / 2, (ty0 + ty1) / 2
    transform = f"translate({tcx:.2f} {tcy:.2f}) scale({scale:.4f})"
    if rotate:
        transform += f" rotate({rotate:g})"
    transform += f" translate({-cx:.2f} {-cy:.2f})"
    group = ET.Element(f"{{{SVG}}}g", {"transform": transform})
    group.append(element)
    return group


# -- drawing --------------------------------------------------------------------------------------

#: Arabic figures as brush-like strokes in a 100x160 box (round ends, drawn with a thick pen).
DIGITS = {
    "0": "M50 8C14 8 8 56 8 80S14 152 50 152 92 104 92 80 86 8 50 8Z",
    "1": "M24 38 58 10V152",
    "2": "M12 44C12 8 88 4 88 46 88 82 30 108 12 152H92",
    "3": "M14 26C30 2 88 4 86 40 84 70 52 76 40 76 62 76 92 84 90 116 88 156 26 158 10 132",
    "4": "M70 152V10L8 108H96",
    "5": "M86 10H24L18 72C42 54 90 58 90 104 90 150 32 160 10 134",
    "6": "M82 16C44 0 10 46 10 100 10 142 36 154 52 152 80 150 92 130 92 106"
    " 92 80 74 66 52 66 28 66 10 82 10 100",
    "7": "M10 10H90L38 152",
    "8": "M50 76C18 76 14 56 14 42 14 20 32 8 50 8S86 20 86 42 82 76 50 76"
    "C18 76 10 96 10 114 10 138 30 152 50 152S90 138 90 114 82 76 50 76Z",
    "9": "M18 144C58 160 90 112 90 60 90 18 62 6 48 8 20 10 8 30 8 54 8 80 28 94"
    " 48 94 70 94 88 80 90 60",
}


def figures(text: str, colour: str, box: Box, pen: float = 22) -> ET.Element:
    """A number written with :data:`DIGITS`, scaled into ``box`` (centred)."""
    group = ET.Element(
        f"{{{SVG}}}g",
        {
            "fill": "none",
            "stroke": colour,
            "stroke-width": f"{pen:g}",
            "stroke-linecap": "round",
            "stroke-linejoin": "round",
        },
    )
    advance = 112
    for index, digit in enumerate(text):
        ET.SubElement(
            group,
            f"{{{SVG}}}path",
            {"d": DIGITS[digit], "transform": f"translate({index * advance} 0)"},
        )
    width = advance * (len(text) - 1) + 100
    return fit(group, (-pen / 2, -pen / 2, width + pen / 2, 160 + pen / 2), box)


def element(tag: str, **attributes: str | float) -> ET.Element:
    return ET.Element(
        f"{{{SVG}}}{tag}",
        {
            key.replace("_", "-"): (f"{value:g}" if isinstance(value, float | int) else value)
            for key, value in attributes.items()
        },
    )


def group(*children: ET.Element, **attributes: str | float) -> ET.Element:
    node = element("g", **attributes)
    for child in children:
        node.append(child)
    return node


def face(*parts: ET.Element, title: str) -> ET.Element:
    root = ET.Element(
        f"{{{SVG}}}svg",
        {"width": str(WIDTH), "height": str(HEIGHT), "viewBox": f"0 0 {WIDTH} {HEIGHT}"},
    )
    ET.SubElement(root, f"{{{SVG}}}title").text = title
    for part in parts:
        root.append(part)
    return root


def save(root: ET.Element, name: str) -> None:
    ET.indent(root, space=" ")
    text = ET.tostring(root, encoding="unicode")
    comment = (
        "<!-- Drawn by make_faces.py (replay/static/replay/tiles) in the style of FluffyStuff's\n"
        "     riichi-mahjong-tiles (public domain, CC0 1.0; see SOURCE.md and LICENSE.md),\n"
        "     reusing its strokes where it can. Public domain (CC0 1.0) as well. -->\n"
    )
    (HERE / f"{name}.svg").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n' + comment + text + "\n"
    )


# -- the faces ------------------------------------------------------------------------------------


def ten(prefix: str, target: Box) -> ET.Element:
    """十 from two brush strokes of 一 (Man1), the second turned upright."""
    x0, y0, x1, y1 = target
    width, height = x1 - x0, y1 - y0
    across = fit(
        borrow("Man1", prefix + "a", keep_fill=BLACK),
        NUMERAL_BOXES[1],
        (x0, y0 + height * 0.30, x1, y0 + height * 0.58),
    )
    upright = fit(
        borrow("Man1", prefix + "b", keep_fill=BLACK),
        NUMERAL_BOXES[1],
        (x0 + width * 0.38, y0, x0 + width * 0.62, y1),
        rotate=90,
    )
    return group(across, upright)


def man(rank: int) -> ET.Element:
    wan = borrow("Man1", "w", keep_fill=RED)
    if rank == 10:
        numeral = ten("t", (70, 4, 230, 146))
    else:
        numeral = group(
            ten("t", (22, 10, 142, 146)),
            fit(
                borrow(f"Man{rank - 10}", "n", keep_fill=BLACK),
                NUMERAL_BOXES[rank - 10],
                (150, 14, 284, 142),
            ),
        )
    return face(numeral, wan, title=f"{rank} characters (mans)")


def pin(rank: int) -> ET.Element:
    coin = fit(borrow("Pin1", "c"), PIN1_BOX, (62, 196, 238, 372))
    return face(figures(str(rank), NAVY, (26, 18, 274, 170)), coin, title=f"{rank} circles (tongs)")


def sou(rank: int) -> ET.Element:
    stick = fit(borrow("Sou2", "s", only="g4337"), SOU_STICK_BOX, (100, 192, 200, 384))
    return face(
        figures(str(rank), GREEN, (26, 18, 274, 170)), stick, title=f"{rank} bamboos (socks)"
    )


def zero() -> ET.Element:
    """The ideographic zero (U+3007) as a brush draws it: a ring, thicker on the left."""
    ring = element(
        "path",
        d=(
            "M150 78C84 76 52 138 54 206 56 282 104 330 160 328 222 326 252 268 248 196 "
            "244 124 206 80 150 78Z"
            "M154 114C196 114 212 158 212 204 212 256 190 294 158 294 118 294 96 258 96 206 "
            "96 152 118 114 154 114Z"
        ),
        fill=BLACK,
        fill_rule="evenodd",
    )
    return face(ring, title="zero")


def compressed(first: str, second: str, across: bool, title: str) -> ET.Element:
    if across:
        boxes: tuple[Box, Box] = ((4, 84, 150, 316), (150, 84, 296, 316))
    else:
        boxes = ((56, 6, 244, 196), (56, 204, 244, 394))
    parts = [
        fit(borrow(name, name[0].lower()), WIND_BOXES[name], box)
        for name, box in zip((first, second), boxes, strict=True)
    ]
    return face(*parts, title=title)


def corner(number: int, colour: str) -> ET.Element:
    return figures(str(number), colour, (14, 10, 82, 112), pen=24)


def petals(
    cx: float, cy: float, radius: float, count: int, size: float, colour: str
) -> list[ET.Element]:
    shapes = []
    for index in range(count):
        angle = 2 * math.pi * index / count - math.pi / 2
        shapes.append(
            element(
                "circle",
                cx=round(cx + radius * math.cos(angle), 1),
                cy=round(cy + radius * math.sin(angle), 1),
                r=size,
                fill=colour,
            )
        )
    return shapes


def blossom(cx: float, cy: float, scale: float, colour: str) -> ET.Element:
    return group(
        *petals(cx, cy, 34 * scale, 5, 30 * scale, colour),
        element("circle", cx=cx, cy=cy, r=17 * scale, fill="#f2c12e"),
        *petals(cx, cy, 9 * scale, 5, 4 * scale, BROWN),
    )


def spring() -> ET.Element:
    """A sprout: a stem and two young leaves."""
    return face(
        corner(1, RED),
        element(
            "path",
            d="M150 370C148 320 152 280 150 214",
            fill="none",
            stroke=GREEN,
            stroke_width=16,
            stroke_linecap="round",
        ),
        element("path", d="M150 250C120 250 76 236 62 180 118 176 144 208 150 250Z", fill=GREEN),
        element("path", d="M150 226C170 206 212 170 246 140 250 200 206 232 150 226Z", fill=GREEN),
        element("circle", cx=150, cy=200, r=20, fill=RED),
        title="spring (the East seat's season)",
    )


def summer() -> ET.Element:
    """The sun."""
    rays = []
    for index in range(12):
        angle = 2 * math.pi * index / 12
        x0, y0 = 150 + 76 * math.cos(angle), 250 + 76 * math.sin(angle)
        x1, y1 = 150 + 112 * math.cos(angle), 250 + 112 * math.sin(angle)
        rays.append(
            element(
                "line",
                x1=round(x0, 1),
                y1=round(y0, 1),
                x2=round(x1, 1),
                y2=round(y1, 1),
                stroke="#e07000",
                stroke_width=16,
                stroke_linecap="round",
            )
        )
    return face(
        corner(2, RED),
        *rays,
        element("circle", cx=150, cy=250, r=60, fill="#d71e1e"),
        element("circle", cx=150, cy=250, r=40, fill="#e8641e"),
        title="summer (the South seat's season)",
    )


def autumn() -> ET.Element:
    """A maple leaf."""
    leaf = (
        "M150 120 172 178 214 152 206 208 262 196 236 246 272 262 210 300 222 330 160 316 "
        "156 372 144 372 140 316 78 330 90 300 28 262 64 246 38 196 94 208 86 152 128 178Z"
    )
    return face(
        corner(3, RED),
        element(
            "path", d=leaf, fill="#c8461e", stroke=BROWN, stroke_width=4, stroke_linejoin="round"
        ),
        element(
            "path",
            d="M150 372V190M150 300 96 250M150 300 204 250M150 250 110 200M150 250 190 200",
            fill="none",
            stroke=BROWN,
            stroke_width=6,
            stroke_linecap="round",
        ),
        title="autumn (the West seat's season)",
    )


def winter() -> ET.Element:
    """A snowflake."""
    arms = []
    for index in range(6):
        angle = math.pi * index / 3 - math.pi / 2
        cos, sin = math.cos(angle), math.sin(angle)

        def at(distance: float, side: float, cos: float = cos, sin: float = sin) -> str:
            return (
                f"{150 + distance * cos - side * sin:.1f} {250 + distance * sin + side * cos:.1f}"
            )

        arms.append(
            element(
                "path",
                d=f"M{at(0, 0)}L{at(110, 0)}M{at(56, 0)}L{at(86, 26)}M{at(56, 0)}L{at(86, -26)}",
                fill="none",
                stroke=BLUE,
                stroke_width=14,
                stroke_linecap="round",
            )
        )
    return face(
        corner(4, RED),
        *arms,
        element("circle", cx=150, cy=250, r=16, fill=BLUE),
        title="winter (the North seat's season)",
    )


def plum() -> ET.Element:
    return face(
        corner(1, BLUE),
        element(
            "path",
            d="M40 380C90 330 150 300 250 150",
            fill="none",
            stroke=BROWN,
            stroke_width=16,
            stroke_linecap="round",
        ),
        blossom(176, 238, 1.25, RED),
        blossom(236, 160, 0.7, RED),
        title="plum (flower one, the East seat's)",
    )


def orchid() -> ET.Element:
    return face(
        corner(2, BLUE),
        element("path", d="M150 380C120 300 70 240 40 200 100 230 140 290 160 380Z", fill=GREEN),
        element("path", d="M156 380C170 300 210 230 262 190 226 250 196 310 172 380Z", fill=GREEN),
        element("path", d="M150 380C146 300 140 250 150 170 160 250 162 300 164 380Z", fill=GREEN),
        *petals(150, 170, 30, 5, 24, "#7a3c9c"),
        element("circle", cx=150, cy=170, r=12, fill="#f2c12e"),
        title="orchid (flower two, the South seat's)",
    )


def chrysanthemum() -> ET.Element:
    rays = []
    for index in range(16):
        angle = 360 * index / 16
        rays.append(
            element(
                "ellipse",
                cx=150,
                cy=196,
                rx=14,
                ry=52,
                fill="#e0a000",
                transform=f"rotate({angle:g} 150 250)",
            )
        )
    return face(
        corner(3, BLUE),
        *rays,
        element("circle", cx=150, cy=250, r=30, fill="#c25e00"),
        title="chrysanthemum (flower three, the West seat's)",
    )


def bamboo() -> ET.Element:
    stalk = [
        element("rect", x=128, y=y, width=44, height=70, rx=14, fill=GREEN) for y in (130, 206, 282)
    ]
    return face(
        corner(4, BLUE),
        *stalk,
        element("path", d="M172 206C210 180 240 176 272 180 240 196 210 206 172 214Z", fill=GREEN),
        element("path", d="M128 282C90 256 60 252 28 256 60 272 90 282 128 290Z", fill=GREEN),
        element("path", d="M172 136C200 110 226 100 256 98 234 120 206 134 172 144Z", fill=GREEN),
        title="bamboo (flower four, the North seat's)",
    )


def main() -> None:
    for rank in range(10, 17):
        save(man(rank), f"Man{rank}")
        save(pin(rank), f"Pin{rank}")
        save(sou(rank), f"Sou{rank}")
    save(zero(), "Zero")
    save(compressed("Ton", "Shaa", True, "East and West (horizontal wind)"), "EastWest")
    save(compressed("Nan", "Pei", False, "South and North (vertical wind)"), "SouthNorth")
    for make, name in (
        (spring, "Spring"),
        (summer, "Summer"),
        (autumn, "Autumn"),
        (winter, "Winter"),
        (plum, "Plum"),
        (orchid, "Orchid"),
        (chrysanthemum, "Chrysanthemum"),
        (bamboo, "Bamboo"),
    ):
        save(make(), name)


if __name__ == "__main__":
    main()

/* Where everything lies on the table: pure maths, no DOM (tests/browser/test_viewer_modules.py).

   The table is seen from one seat, which sits at the bottom; the others follow in turn order
   counter-clockwise (the next player on the right). Each seat has a *block*: a rectangle laid
   out as if it were the bottom seat's (its river of rows of six at the top, towards the centre,
   its hand along the bottom edge, melds at the right end) and turned to face its side of the
   table (0, -90, 180 or 90 degrees). The seat's name, wind and score lie just beyond the block's
   inner edge, in the centre box.

   Two arrangements:

   - ``square`` (wide screens): a square table; each block runs from its own left corner to the
     next side (a pinwheel, as the walls lie on a real table), so the four blocks never overlap
     and the centre box is the square they leave.
   - ``tall`` (narrow screens): a rectangle as wide as the screen; the top and bottom blocks
     run the full width and the side blocks lie between them.

   Five and six seats (Ùzje) put two seats on each side, the sixth across; three seats leave the
   top empty; two seats face each other. */

/** A tile's height over its width. */
export const TILE_RATIO = 1.34;
/** The gap after each tile of a hand, in tile widths (viewer.css: .tile's margin). */
export const TILE_GAP = 0.03;

/** Where each seat sits, in turn order from the viewed seat. */
export const POSITIONS = {
  2: ["bottom", "top"],
  3: ["bottom", "right", "left"],
  4: ["bottom", "right", "top", "left"],
  5: ["bottom", "right", "top-right", "top-left", "left"],
  6: ["bottom", "right", "top-right", "top", "top-left", "left"]
};

export function positions(count) {
  return POSITIONS[count] || POSITIONS[4];
}

/** The position of ``seat`` on a table seen from ``viewed``. */
export function positionOf(seat, viewed, count) {
  return positions(count)[(((seat - viewed) % count) + count) % count];
}

/** Where a called tile came from, seen by the meld's owner: "left" (the player before),
    "right" (the player after) or "across". */
export function relation(from, owner, count) {
  const relative = (((from - owner) % count) + count) % count;
  if (count > 2 && relative === count - 1) {
    return "left";
  }
  if (count > 2 && relative === 1) {
    return "right";
  }
  return "across";
}

/** The side of the table a position is on, which of the seats on that side it is (in the
    side's own left-to-right order) and how many share the side. */
export function slot(position, count) {
  const shared = count >= 5;
  switch (position) {
    case "bottom":
      return { side: "bottom", index: 0, of: 1 };
    case "top":
      return { side: "top", index: 0, of: 1 };
    case "right":
      return { side: "right", index: 0, of: shared ? 2 : 1 };
    case "top-right":
      return { side: "right", index: 1, of: 2 };
    case "top-left":
      return { side: "left", index: 0, of: 2 };
    case "left":
      return { side: "left", index: shared ? 1 : 0, of: shared ? 2 : 1 };
    default:
      throw new Error("no such position: " + position);
  }
}

const ANGLES = { bottom: 0, right: -90, top: 180, left: 90 };

/** Rows of six, as a river is laid. */
export function riverRows(discards, perRow) {
  const size = perRow || 6;
  const rows = [];
  for (let index = 0; index < discards.length; index += size) {
    rows.push(discards.slice(index, index + size));
  }
  return rows;
}

/** The widest tile (at most ``largest``) that lays ``units`` tile widths along ``length``. */
export function tileToFit(units, length, largest) {
  return Math.min(largest, units > 0 ? length / units : largest);
}

/** Tile widths a hand row takes: concealed tiles, the drawn tile set apart, then each group
    at the right (melds, set-aside norths or flowers) with a gap before it. ``groups`` is a list
    of ``{tiles, turned}``: how many tiles stand upright and how many columns lie sideways (an
    added kan's two turned tiles are one column). */
export function handUnits(concealed, drawn, groups) {
  let units = (concealed + (drawn ? 1 : 0)) * (1 + TILE_GAP) + (drawn ? 0.4 : 0);
  (groups || []).forEach((group) => {
    units += group.tiles + group.turned * TILE_RATIO + 0.35;
  });
  return units;
}

/** Tile widths a river row of six takes (one may be turned: the riichi tile). */
export const RIVER_UNITS = 6 + (TILE_RATIO - 1) + 0.1;

/** River rows a block is sized for (a hand of four players discards some 18 tiles; of five or
    six, some 14); a longer river lays smaller tiles. */
export function riverRowsFor(count) {
  return count >= 5 ? 3 : 4;
}

/** The river's tile width when it has ``rows`` rows, in a block sized for ``room`` rows of
    ``base``-wide tiles: smaller past them. */
export function riverTile(rows, base, room) {
  const fits = room || 4;
  return rows > fits ? (base * fits) / rows : base;
}

/** Sizes (tile widths, in CSS pixels) of a table of ``count`` seats ``unit`` wide (the square's
    side, or the screen's width in the tall arrangement). */
function sizes(count, unit, mode) {
  const shared = count >= 5;
  if (mode === "square") {
    return {
      river: unit * (shared ? 0.04 : 0.041),
      hand: unit * (shared ? 0.03 : 0.036),
      own: unit * (shared ? 0.045 : 0.05),
      info: Math.max(18, unit * 0.03)
    };
  }
  return {
    river: unit * (shared ? 0.045 : 0.042),
    // Across the table (a 180-degree turn keeps a tile's width across the screen).
    across: Math.max(shared ? 14.5 : 20.5, unit * (shared ? 0.04 : 0.055)),
    // At the sides (turned, a tile is as wide on screen as it is tall).
    hand: Math.max(shared ? 11 : 15.5, unit * (shared ? 0.036 : 0.045)),
    own: Math.min(27, Math.max(20.5, unit / 14.6)),
    info: 16
  };
}

/** How deep a block is: the riichi stick's band, the river's rows, a gap, the hand. */
function depth(river, hand, rows) {
  return river * 0.45 + rows * river * TILE_RATIO + river * 0.25 + hand * TILE_RATIO;
}

/** The sides that have seats. */
function sidesOf(count) {
  const sides = { bottom: 1, top: 0, right: 0, left: 0 };
  positions(count).forEach((position) => {
    const found = slot(position, count);
    sides[found.side] = found.of;
  });
  return sides;
}

/**
 * The table's geometry.
 *
 * ``options``: ``count`` (seats), ``width`` (CSS pixels available), ``height`` (the most the
 * table may take, square arrangement), ``mode`` ("square" or "tall").
 *
 * Returns ``{mode, width, height, centre, inner, info, seats}``: the table's size, the centre
 * box and its part inside the seats' name strips (``inner``), the strips' depth, and per
 * position a block: ``side``, ``angle``, ``left``/``top``/``length``/``depth`` (the unturned
 * block's box: turned about its centre it lies on its side), ``x``/``y`` (its centre),
 * ``hand``/``river`` (the largest tile widths), ``rows`` (the river rows it is sized for), ``smallest`` (the smallest a hand's tiles may
 * get: past it the melds take a second line), ``riverOffset`` (where its river starts along
 * the block), ``riverWidth``, ``facing`` (the part of the block along the centre box:
 * ``[start, end]``) and ``handLength``.
 */
export function tableGeometry(options) {
  const count = options.count;
  const mode = options.mode === "tall" ? "tall" : "square";
  const sides = sidesOf(count);
  const rows = riverRowsFor(count);
  let width;
  let height;
  const seatsPerSide = Math.max(sides.left, sides.right);
  let size;
  const depths = {};
  if (mode === "square") {
    const side = Math.max(200, Math.min(options.width, options.height || options.width));
    size = sizes(count, side, mode);
    width = height = side;
    const other = depth(size.river, size.hand, rows);
    depths.bottom = depth(size.river, size.own, rows);
    // Every side keeps its depth, seated or not: the centre box stays in the middle.
    depths.top = depths.right = depths.left = other;
  } else {
    width = Math.max(200, options.width);
    size = sizes(count, width, mode);
    depths.bottom = depth(size.river, size.own, rows);
    depths.top = sides.top ? depth(size.river, size.across, rows) : size.info;
    depths.right = depths.left = sides.right ? depth(size.river, size.hand, rows) : size.info;
    // Tall enough for the side hands (and the centre's own lines).
    const handsAlong = seatsPerSide * (15.2 * size.hand) + (seatsPerSide - 1) * size.hand;
    const centreNeeds = Math.max(RIVER_UNITS * size.river + 2 * size.info, 9 * size.info);
    height = depths.top + depths.bottom + Math.max(handsAlong, centreNeeds);
  }

  const centre = {
    left: depths.left,
    top: depths.top,
    width: width - depths.left - depths.right,
    height: height - depths.top - depths.bottom
  };
  // Each side: where its local x starts (the outer corner on its own left), the local x
  // direction, the inward normal, its length and the part facing the centre box.
  const frames = {};
  if (mode === "square") {
    frames.bottom = { origin: [0, height], along: [1, 0], inward: [0, -1], length: width - depths.right,
                      facing: [depths.left, width - depths.right] };
    frames.right = { origin: [width, height], along: [0, -1], inward: [-1, 0], length: height - depths.top,
                     facing: [depths.bottom, height - depths.top] };
    frames.top = { origin: [width, 0], along: [-1, 0], inward: [0, 1], length: width - depths.left,
                   facing: [depths.right, width - depths.left] };
    frames.left = { origin: [0, 0], along: [0, 1], inward: [1, 0], length: height - depths.bottom,
                    facing: [depths.top, height - depths.bottom] };
  } else {
    const middle = height - depths.top - depths.bottom;
    frames.bottom = { origin: [0, height], along: [1, 0], inward: [0, -1], length: width,
                      facing: [depths.left, width - depths.right] };
    frames.right = { origin: [width, height - depths.bottom], along: [0, -1], inward: [-1, 0],
                     length: middle, facing: [0, middle] };
    frames.top = { origin: [width, 0], along: [-1, 0], inward: [0, 1], length: width,
                   facing: [depths.right, width - depths.left] };
    frames.left = { origin: [0, depths.top], along: [0, 1], inward: [1, 0], length: middle,
                    facing: [0, middle] };
  }

  const seats = {};
  positions(count).forEach((position) => {
    const where = slot(position, count);
    const frame = frames[where.side];
    const share = frame.length / where.of;
    const start = where.index * share;
    const end = start + share;
    const blockDepth = depths[where.side];
    let hand = size.hand;
    if (where.side === "bottom") {
      hand = size.own;
    } else if (where.side === "top" && mode === "tall") {
      hand = size.across;
    }
    // On a narrow screen a hand keeps readable tiles: its melds go to a second line instead.
    const smallest = mode === "tall" ? Math.min(hand, where.side === "bottom" || where.side === "top" ? 20.5 : 15.5) : 0;
    const river = size.river;
    const riverWidth = RIVER_UNITS * river;
    const facingStart = Math.max(start, frame.facing[0]);
    const facingEnd = Math.min(end, frame.facing[1]);
    // The river starts at the centre box's left (as its owner sees it), inside the block.
    const riverStart = Math.max(start, Math.min(facingStart, end - riverWidth));
    const middle = (start + end) / 2;
    const x = frame.origin[0] + frame.along[0] * middle + frame.inward[0] * (blockDepth / 2);
    const y = frame.origin[1] + frame.along[1] * middle + frame.inward[1] * (blockDepth / 2);
    seats[position] = {
      position: position,
      side: where.side,
      angle: ANGLES[where.side],
      x: x,
      y: y,
      length: share,
      depth: blockDepth,
      left: x - share / 2,
      top: y - blockDepth / 2,
      hand: hand,
      smallest: smallest,
      river: river,
      rows: rows,
      riverOffset: riverStart - start,
      riverWidth: riverWidth,
      // The name strip runs along the centre box; where two seats share a side, along the
      // seat's own river (the part of the block facing the centre may be short).
      facing:
        where.of === 1 && facingEnd - facingStart >= riverWidth
          ? [facingStart - start, facingEnd - start]
          : [riverStart - start, riverStart - start + riverWidth],
      handLength: share - hand * 0.4
    };
  });

  const inset = (side) => (sides[side] ? size.info + 4 : 4);
  const inner = {
    left: centre.left + inset("left"),
    top: centre.top + inset("top"),
    width: centre.width - inset("left") - inset("right"),
    height: centre.height - inset("top") - inset("bottom")
  };
  return { mode: mode, count: count, width: width, height: height, centre: centre, inner: inner,
           info: size.info, seats: seats };
}

/** The screen box of a block once turned (what it covers on the table). */
export function blockBox(block) {
  const upright = block.angle % 180 === 0;
  const w = upright ? block.length : block.depth;
  const h = upright ? block.depth : block.length;
  return { left: block.x - w / 2, top: block.y - h / 2, right: block.x + w / 2, bottom: block.y + h / 2 };
}

/** The area two boxes share. */
export function overlap(a, b) {
  const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
  const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return Math.max(0, w) * Math.max(0, h);
}

/** Which arrangement suits a viewer this wide: the square needs room for a readable hand. */
export function modeFor(width) {
  return width >= 560 ? "square" : "tall";
}

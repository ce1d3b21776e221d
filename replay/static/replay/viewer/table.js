/* The table: each seat's block (river, hand, melds, its name strip and riichi stick) placed by
   layout.js, and the centre box (round, counters, wall, dora). Drawn anew for each frame. */

import { t, roundWords } from "./strings.js";
import { scoreText, signed } from "./format.js";
import {
  handUnits,
  positionOf,
  riverRows,
  riverTile,
  tableGeometry,
  tileToFit
} from "./layout.js";
import { clear, element, meld, meldShape, tile, tiles } from "./tiles.js";

const WIND_LETTERS = ["E", "S", "W", "N"];

function px(value) {
  return value.toFixed(2) + "px";
}

function seatWind(seat, dealer, count) {
  return WIND_LETTERS[(seat - dealer + count) % count];
}

/**
 * The table of one game. ``nodes``: ``table``, ``center``; ``count`` seats; ``names(seat)``.
 */
export class Table {
  constructor(nodes, count, names) {
    this.table = nodes.table;
    this.center = nodes.center;
    this.count = count;
    this.names = names;
    this.geometry = null;
    this.seats = [];
    for (let seat = 0; seat < count; seat += 1) {
      this.seats.push(this.buildSeat(seat));
    }
  }

  buildSeat(seat) {
    const section = element("section", "seat");
    section.setAttribute("data-seat", String(seat));
    section.setAttribute("aria-label", this.names(seat));
    const info = element("header", "seat-info");
    const wind = element("span", "wind");
    const name = element("span", "name", this.names(seat));
    const score = element("span", "score");
    score.setAttribute("data-part", "score");
    const delta = element("span", "delta");
    delta.setAttribute("data-part", "delta");
    const shanten = element("span", "shanten-badge");
    [wind, name, score, delta, shanten].forEach((node) => info.appendChild(node));
    const riichi = element("span", "riichi-mark");
    riichi.appendChild(element("span", "visually-hidden", t("riichi")));
    const river = element("div", "river");
    river.setAttribute("data-part", "river");
    const row = element("div", "hand-row");
    const hand = element("div", "hand");
    hand.setAttribute("data-part", "hand");
    const melds = element("div", "melds");
    melds.setAttribute("data-part", "melds");
    row.appendChild(hand);
    row.appendChild(melds);
    [info, riichi, river, row].forEach((node) => section.appendChild(node));
    this.table.insertBefore(section, this.center);
    return { section, info, wind, name, score, delta, shanten, riichi, river, row, hand, melds };
  }

  /** Lay the table out for a viewer ``width`` wide, at most ``height`` tall. */
  layout(width, height, mode) {
    const key = [width, height, mode].join(":");
    if (this.geometry && this.geometryKey === key) {
      return this.geometry;
    }
    this.geometryKey = key;
    const geometry = tableGeometry({ count: this.count, width: width, height: height, mode: mode });
    this.geometry = geometry;
    this.table.style.width = px(geometry.width);
    this.table.style.height = px(geometry.height);
    this.table.setAttribute("data-layout", geometry.mode);
    const centre = geometry.centre;
    Object.assign(this.center.style, {
      left: px(centre.left),
      top: px(centre.top),
      width: px(centre.width),
      height: px(centre.height)
    });
    const core = this.center.querySelector(".center-core");
    if (core) {
      Object.assign(core.style, {
        left: px(geometry.inner.left - centre.left),
        top: px(geometry.inner.top - centre.top),
        width: px(geometry.inner.width),
        height: px(geometry.inner.height)
      });
    }
    this.table.style.setProperty("--info", px(geometry.info));
    return geometry;
  }

  /** Draw ``frame`` (``previous``: the frame before, for the last discard's mark) seen from
      ``options.viewed``, other hands shown when ``options.handsShown``. */
  render(frame, previous, options) {
    for (let seat = 0; seat < this.count; seat += 1) {
      this.renderSeat(frame, previous, seat, options);
    }
    this.renderCentre(frame, options.notation);
  }

  renderSeat(frame, previous, seat, options) {
    const notation = options.notation;
    const view = frame.seats[seat];
    const nodes = this.seats[seat];
    const position = positionOf(seat, options.viewed, this.count);
    const block = this.geometry.seats[position];
    const open = options.handsShown || seat === options.viewed;
    const section = nodes.section;
    section.setAttribute("data-pos", position);
    section.setAttribute("data-side", block.side);
    section.classList.toggle("viewed", seat === options.viewed);
    section.classList.toggle("active", frame.turn === seat && frame.step > 0);
    section.classList.toggle("dealer", frame.dealer === seat);
    section.classList.toggle("in-riichi", !!view.riichi);
    Object.assign(section.style, {
      left: px(block.left),
      top: px(block.top),
      width: px(block.length),
      height: px(block.depth),
      transform: block.angle ? "rotate(" + block.angle + "deg)" : ""
    });

    // The name strip in the centre box, the riichi stick between it and the river.
    const wind = view.wind !== undefined ? view.wind : seatWind(seat, frame.dealer, this.count);
    nodes.wind.textContent = wind ? t("windLetters")[wind] || wind : "\u00b7";
    nodes.wind.title = (wind ? t("winds")[wind] : t("noSeatWind")) + (frame.dealer === seat ? t("dealer") : "");
    nodes.score.textContent = scoreText(view.score);
    nodes.delta.textContent = view.delta ? signed(view.delta) : "";
    nodes.delta.className = "delta" + (view.delta > 0 ? " plus" : view.delta < 0 ? " minus" : "");
    nodes.shanten.textContent = open ? shantenWords(view.shanten, notation) : "";
    Object.assign(nodes.info.style, {
      left: px(block.facing[0]),
      width: px(block.facing[1] - block.facing[0]),
      height: px(this.geometry.info)
    });
    nodes.riichi.hidden = !view.riichi;
    nodes.riichi.title = t("riichiStick", { name: this.names(seat) });
    const riverWidth = block.riverWidth;
    Object.assign(nodes.riichi.style, {
      left: px(block.riverOffset + riverWidth * 0.2),
      width: px(riverWidth * 0.6),
      height: px(block.river * 0.3)
    });

    // The hand, the drawn tile apart, then at the right the norths, flowers and melds.
    clear(nodes.hand);
    view.hand.forEach((code) => nodes.hand.appendChild(tile(open ? code : null, notation)));
    if (view.drawn) {
      nodes.hand.appendChild(tile(open ? view.drawn : null, notation, "drawn"));
    }
    clear(nodes.melds);
    const groups = [];
    if (view.north) {
      const kita = element("span", "kita");
      kita.title = t("kita", { count: view.north });
      for (let index = 0; index < view.north; index += 1) {
        kita.appendChild(tile("4z", notation, "north-tile"));
      }
      nodes.melds.appendChild(kita);
      groups.push({ tiles: view.north, turned: 0 });
    }
    if (view.flowers && view.flowers.length) {
      const flowers = element("span", "flowers");
      flowers.setAttribute("data-part", "flowers");
      flowers.title = t("flowersAside", { count: view.flowers.length });
      view.flowers.forEach((code) => flowers.appendChild(tile(code, notation, "flower-tile")));
      nodes.melds.appendChild(flowers);
      groups.push({ tiles: view.flowers.length, turned: 0 });
    }
    view.melds.forEach((group) => {
      nodes.melds.appendChild(meld(group, seat, this.count, notation, this.names));
      groups.push(meldShape(group, notation));
    });
    const units = handUnits(view.hand.length, !!view.drawn, groups);
    const size = Math.max(block.smallest, tileToFit(units, block.handLength, block.hand));
    nodes.row.style.setProperty("--tw", px(size));

    // The river in rows of six, the riichi tile sideways, the last discard marked.
    clear(nodes.river);
    const action = frame.action;
    const grew =
      !!action &&
      action.seat === seat &&
      !!previous &&
      previous.seats[seat].discards.length < view.discards.length;
    const rows = riverRows(view.discards);
    const riverSize = riverTile(rows.length, block.river, block.rows);
    Object.assign(nodes.river.style, {
      left: px(block.riverOffset),
      top: px(block.river * 0.45),
      width: px(block.riverWidth)
    });
    nodes.river.style.setProperty("--tw", px(riverSize));
    let index = 0;
    rows.forEach((discards) => {
      const row = element("div", "river-row");
      discards.forEach((discard) => {
        const classes = [];
        if (discard.riichi) {
          classes.push("side", "riichi-tile");
        }
        if (discard.called) {
          classes.push("called");
        }
        if (discard.tsumogiri) {
          classes.push("tsumogiri");
        }
        if (grew && index === view.discards.length - 1) {
          classes.push("last");
        }
        const node = tile(discard.tile, notation, classes.join(" "));
        if (discard.tsumogiri) {
          node.title += t("tsumogiri");
        }
        if (discard.called) {
          node.title += t("called");
        }
        if (discard.riichi) {
          node.title += t("riichiTile");
        }
        // The marks are said, not only drawn: a screen reader reads the label.
        node.setAttribute("aria-label", node.title);
        row.appendChild(node);
        index += 1;
      });
      nodes.river.appendChild(row);
    });
  }

  renderCentre(frame, notation) {
    const center = this.center;
    document.getElementById("round-name").textContent = roundWords(frame.round_name);
    document.getElementById("honba").textContent = String(frame.honba);
    document.getElementById("honba-word").textContent = notation.repeats(frame.honba);
    document.getElementById("sticks-line").hidden = !notation.riichiSticks;
    document.getElementById("sticks").textContent = String(frame.riichi_sticks);
    center.querySelector(".plural").hidden = frame.riichi_sticks === 1;
    document.getElementById("wall").textContent = String(frame.wall_left);
    center.querySelector(".dora-line .label").textContent = notation.doraLabel;
    const dora = center.querySelector('[data-part="dora"]');
    clear(dora);
    dora.appendChild(tiles(frame.dora_indicators || [], notation));
    // Small mahjong has no dora at all.
    center.querySelector(".dora-line").hidden = !(frame.dora_indicators || []).length;
    // Ùzje with bonus_is_next: the shown tiles make other tiles count; show those too.
    const counted = frame.bonus_tiles;
    const bonusLine = center.querySelector(".bonus-line");
    const bonus = bonusLine.querySelector('[data-part="bonus"]');
    clear(bonus);
    const differs = Array.isArray(counted) && counted.join(" ") !== (frame.dora_indicators || []).join(" ");
    bonusLine.hidden = !differs;
    if (differs) {
      bonus.appendChild(tiles(counted, notation));
    }
    const ura = center.querySelector('[data-part="ura"]');
    clear(ura);
    const uraTiles = frame.ura_indicators || [];
    ura.appendChild(tiles(uraTiles, notation));
    center.querySelector(".ura-line").hidden = uraTiles.length === 0;
  }
}

export function shantenWords(value, notation) {
  if (value === null || value === undefined) {
    return "";
  }
  if (value < 0) {
    return t("badgeComplete");
  }
  if (value === 0) {
    return notation.readyWord;
  }
  return t("badgeShanten", { n: value });
}

/* MPSZ, the notation of riichi mahjong and its variants (space, small, the mini-game): ``1m``-``9m``,
   ``1p``-``9p``, ``1s``-``9s``, ``1z``-``7z`` (East South West North, white green red), the red
   fives ``0m 0p 0s`` (docs/replay.md "Frames"). Every tile has a face of the vendored set
   (tiles/SOURCE.md). Pure functions: no DOM. */

import { words } from "../format.js";

const SUITS = { m: ["man", "Man"], p: ["pin", "Pin"], s: ["sou", "Sou"] };
const HONOURS = {
  1: ["East wind", "Ton"],
  2: ["South wind", "Nan"],
  3: ["West wind", "Shaa"],
  4: ["North wind", "Pei"],
  5: ["White dragon", "Haku"],
  6: ["Green dragon", "Hatsu"],
  7: ["Red dragon", "Chun"]
};

/** A han count in words (yakuman hands count 13 per yakuman). */
function yakumanWords(han) {
  const times = Math.round(han / 13);
  return words(["", "yakuman", "double_yakuman", "triple_yakuman", "quadruple_yakuman"][times] || times + "x_yakuman");
}

function isYakuman(win) {
  return !!win.limit && /yakuman$/.test(win.limit) && win.limit !== "kazoe_yakuman";
}

const mpsz = {
  name: "mpsz",
  /** Melds are laid with the called tile sideways (riichi custom). */
  upright: false,
  riichiSticks: true,
  shantenKnown: true,
  doraLabel: "Dora",
  indicatorsLabel: "Dora indicators",

  /** The tile in words: "5 man", "red 5 pin", "East wind". */
  label(code) {
    const rank = String(code).charAt(0);
    const suit = String(code).charAt(1);
    if (String(code).length !== 2) {
      return null;
    }
    if (suit === "z") {
      return HONOURS[rank] ? HONOURS[rank][0] : null;
    }
    if (!SUITS[suit] || !/[0-9]/.test(rank)) {
      return null;
    }
    return rank === "0" ? "red 5 " + SUITS[suit][0] : rank + " " + SUITS[suit][0];
  },

  /** The face's file in tiles/ ("Man5-Dora.svg" for the red five), or null. */
  face(code) {
    const rank = String(code).charAt(0);
    const suit = String(code).charAt(1);
    if (String(code).length !== 2) {
      return null;
    }
    if (suit === "z") {
      return HONOURS[rank] ? HONOURS[rank][1] + ".svg" : null;
    }
    if (!SUITS[suit] || !/[0-9]/.test(rank)) {
      return null;
    }
    return SUITS[suit][1] + (rank === "0" ? "5-Dora" : rank) + ".svg";
  },

  red(code) {
    return /^0[mps]$/.test(String(code));
  },

  /** What the dealer's counter counts. */
  repeats() {
    return "honba";
  },

  readyWord: "Tenpai",

  /** One yaku's worth: "2 han", or "Yakuman" / "Double yakuman" in a yakuman hand. */
  yakuWorth(win, amount) {
    return isYakuman(win) ? yakumanWords(amount) : amount + " han";
  },

  /** A win's value: ``text`` ("5 han 40 fu", empty for a yakuman), ``limit`` ("Mangan",
      "Yakuman", null) and whether it is a yakuman. */
  value(win) {
    if (isYakuman(win)) {
      return { text: "", limit: words(win.limit), yakuman: true };
    }
    const parts = [];
    if (win.han !== null && win.han !== undefined) {
      parts.push(win.han + " han");
    }
    if (win.fu) {
      parts.push(win.fu + " fu");
    }
    return { text: parts.join(" "), limit: win.limit ? words(win.limit) : null, yakuman: false };
  },

  selfDraw: "winsByTsumo",
  fromDiscard: "winsByRon"
};

export default mpsz;

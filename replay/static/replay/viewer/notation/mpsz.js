/* MPSZ, the notation of riichi mahjong and its variants (space, small, the mini-game): ``1m``-``9m``,
   ``1p``-``9p``, ``1s``-``9s``, ``1z``-``7z`` (East South West North, white green red), the red
   fives ``0m 0p 0s`` (docs/replay.md "Frames"). Every tile has a face of the vendored set
   (tiles/SOURCE.md). Pure functions: no DOM. Its words follow the page's language
   (``language()`` of strings.js): "5 man", "East wind", "3 han 40 fu", "Mangan" in English;
   五萬, 東, 3翻 40符, 満貫 in Japanese. */

import { words } from "../format.js";
import { language } from "../strings.js";

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

// Japanese: the kanji numerals of the suits' tiles, the suits, the honours by rank.
const KANJI_RANKS = ["五", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
const JAPANESE_SUITS = { m: "萬", p: "筒", s: "索" };
const JAPANESE_HONOURS = { 1: "東", 2: "南", 3: "西", 4: "北", 5: "白", 6: "發", 7: "中" };
// The limits (engine/scoring/limits.py) in Japanese.
const JAPANESE_LIMITS = {
  mangan: "満貫",
  haneman: "跳満",
  baiman: "倍満",
  sanbaiman: "三倍満",
  yakuman: "役満",
  kazoe_yakuman: "数え役満",
  double_yakuman: "ダブル役満",
  triple_yakuman: "トリプル役満",
  quadruple_yakuman: "4倍役満",
  quintuple_yakuman: "5倍役満",
  sextuple_yakuman: "6倍役満"
};

function japanese() {
  return language() === "ja";
}

/** A limit in words: "Mangan", "Double yakuman" (満貫, ダブル役満). */
function limitWords(limit) {
  return japanese() && JAPANESE_LIMITS[limit] ? JAPANESE_LIMITS[limit] : words(limit);
}

function hanWords(han) {
  return japanese() ? han + "翻" : han + " han";
}

/** A han count in words (yakuman hands count 13 per yakuman). */
function yakumanWords(han) {
  const times = Math.round(han / 13);
  return limitWords(["", "yakuman", "double_yakuman", "triple_yakuman", "quadruple_yakuman"][times] || times + "x_yakuman");
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
  get doraLabel() {
    return japanese() ? "ドラ" : "Dora";
  },
  get indicatorsLabel() {
    return japanese() ? "ドラ表示牌" : "Dora indicators";
  },

  /** The tile in words: "5 man", "red 5 pin", "East wind" (五萬, 赤五筒, 東). */
  label(code) {
    const rank = String(code).charAt(0);
    const suit = String(code).charAt(1);
    if (String(code).length !== 2) {
      return null;
    }
    if (suit === "z") {
      if (!HONOURS[rank]) {
        return null;
      }
      return japanese() ? JAPANESE_HONOURS[rank] : HONOURS[rank][0];
    }
    if (!SUITS[suit] || !/[0-9]/.test(rank)) {
      return null;
    }
    if (japanese()) {
      return (rank === "0" ? "赤" : "") + KANJI_RANKS[Number(rank)] + JAPANESE_SUITS[suit];
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
    return japanese() ? "本場" : "honba";
  },

  get readyWord() {
    return japanese() ? "聴牌" : "Tenpai";
  },

  /** One yaku's worth: "2 han", or "Yakuman" / "Double yakuman" in a yakuman hand. */
  yakuWorth(win, amount) {
    return isYakuman(win) ? yakumanWords(amount) : hanWords(amount);
  },

  /** A win's value: ``text`` ("5 han 40 fu", empty for a yakuman), ``limit`` ("Mangan",
      "Yakuman", null) and whether it is a yakuman. */
  value(win) {
    if (isYakuman(win)) {
      return { text: "", limit: limitWords(win.limit), yakuman: true };
    }
    const parts = [];
    if (win.han !== null && win.han !== undefined) {
      parts.push(hanWords(win.han));
    }
    if (win.fu) {
      parts.push(japanese() ? win.fu + "符" : win.fu + " fu");
    }
    return { text: parts.join(" "), limit: win.limit ? limitWords(win.limit) : null, yakuman: false };
  },

  selfDraw: "winsByTsumo",
  fromDiscard: "winsByRon"
};

export default mpsz;

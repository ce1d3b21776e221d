/* UJMJ, the notation of Ùzje mahjong (docs/variants/uzje.md): a rank ``1``-``9``, ``x`` (10) or
   ``a``-``f`` (11-16) and a suit, ``t`` tongs (circles), ``s`` socks (bamboos), ``m`` mans
   (characters); ``Z`` the zero (``0t 0s 0m`` when a meld uses it as a number); winds ``E S W N``
   or the compressed ``H`` (East and West) and ``V`` (South and North); arrows ``C F P`` (red,
   green, white: the dragons); flowers ``h i j k`` (the seasons) and ``o p q r`` (one to four).
   ``5s`` is 5 socks here, not 5 sou: the frames say ``"notation": "uzje"``.

   Ranks 1-9, the winds and the arrows are the vendored set's faces (the suits are the same
   ones under other names); ranks 10-16, the zero, H, V and the flowers are drawn in its style
   by tiles/make_faces.py. Pure functions: no DOM. Its words follow the page's language
   (``language()`` of strings.js): "5 socks", "Red arrow", "3.6 f" in English; 5索, 赤の矢（中）,
   3.6 f in Japanese (the suits and honours by the riichi tiles whose faces they share). */

import { language } from "../strings.js";

const RANKS = "0123456789xabcdef";
const SUITS = { t: ["tongs", "Pin"], s: ["socks", "Sou"], m: ["mans", "Man"] };
const HONOURS = {
  Z: ["Zero", "Zero"],
  E: ["East wind", "Ton"],
  S: ["South wind", "Nan"],
  W: ["West wind", "Shaa"],
  N: ["North wind", "Pei"],
  H: ["Horizontal wind (East and West)", "EastWest"],
  V: ["Vertical wind (South and North)", "SouthNorth"],
  C: ["Red arrow", "Chun"],
  F: ["Green arrow", "Hatsu"],
  P: ["White arrow", "Haku"]
};
const SEAT_WINDS = ["East", "South", "West", "North"];
// Japanese: the suits, honours, seat winds and flowers (name, picture).
const JAPANESE_SUITS = { t: "筒", s: "索", m: "萬" };
const JAPANESE_HONOURS = {
  Z: "ゼロ",
  E: "東",
  S: "南",
  W: "西",
  N: "北",
  H: "横の風（東西）",
  V: "縦の風（南北）",
  C: "赤の矢（中）",
  F: "緑の矢（發）",
  P: "白の矢（白）"
};
const JAPANESE_SEAT_WINDS = ["東", "南", "西", "北"];
const JAPANESE_FLOWERS = {
  h: ["春", ""],
  i: ["夏", ""],
  j: ["秋", ""],
  k: ["冬", ""],
  o: ["一", "梅、"],
  p: ["二", "蘭、"],
  q: ["三", "菊、"],
  r: ["四", "竹、"]
};

function japanese() {
  return language() === "ja";
}
// Each flower: its name, its picture, and the seat (1-4: East to North) it belongs to.
const FLOWERS = {
  h: ["Spring", "", "Spring", 1],
  i: ["Summer", "", "Summer", 2],
  j: ["Autumn", "", "Autumn", 3],
  k: ["Winter", "", "Winter", 4],
  o: ["One", "plum, ", "Plum", 1],
  p: ["Two", "orchid, ", "Orchid", 2],
  q: ["Three", "chrysanthemum, ", "Chrysanthemum", 3],
  r: ["Four", "bamboo, ", "Bamboo", 4]
};

/** A number tile's rank (0-16) and suit letter, or null. */
export function numberTile(code) {
  const text = String(code);
  if (text.length !== 2 || !SUITS[text.charAt(1)]) {
    return null;
  }
  const rank = RANKS.indexOf(text.charAt(0));
  return rank < 0 ? null : { rank: rank, suit: text.charAt(1) };
}

/** Fan are counted in tenths (36 is 3.6 f). */
export function fanText(tenths) {
  return String(Math.round(tenths) / 10) + " f";
}

export function limitText(limits) {
  const number = parseInt(String(limits), 10);
  if (japanese()) {
    return "上限役" + number;
  }
  return number + (number === 1 ? " limit" : " limits");
}

const uzje = {
  name: "uzje",
  /** "All tiles are upright relative to the player, and never put sideways" (seeds/002). */
  upright: true,
  riichiSticks: false,
  shantenKnown: false,
  get doraLabel() {
    return japanese() ? "ボーナス" : "Bonus";
  },
  get indicatorsLabel() {
    return japanese() ? "ボーナス牌" : "Bonus tiles";
  },

  /** The tile in words: "5 socks", "Spring flower (East)" (5索, 春の花（東）). */
  label(code) {
    const number = numberTile(code);
    if (number && japanese()) {
      return number.rank + JAPANESE_SUITS[number.suit];
    }
    if (japanese()) {
      const flower = JAPANESE_FLOWERS[code];
      if (flower) {
        return flower[0] + "の花（" + flower[1] + JAPANESE_SEAT_WINDS[FLOWERS[code][3] - 1] + "）";
      }
      return JAPANESE_HONOURS[code] || null;
    }
    if (number) {
      return number.rank + " " + SUITS[number.suit][0];
    }
    const flower = FLOWERS[code];
    if (flower) {
      return flower[0] + " flower (" + flower[1] + SEAT_WINDS[flower[3] - 1] + ")";
    }
    return HONOURS[code] ? HONOURS[code][0] : null;
  },

  face(code) {
    const number = numberTile(code);
    if (number) {
      return number.rank === 0 ? "Zero.svg" : SUITS[number.suit][1] + number.rank + ".svg";
    }
    if (FLOWERS[code]) {
      return FLOWERS[code][2] + ".svg";
    }
    return HONOURS[code] ? HONOURS[code][1] + ".svg" : null;
  },

  red() {
    return false;
  },

  isFlower(code) {
    return !!FLOWERS[code];
  },

  /** The games the dealer has dealt in a row. */
  repeats(count) {
    if (japanese()) {
      return "連荘";
    }
    return count === 1 ? "repeat" : "repeats";
  },

  get readyWord() {
    return japanese() ? "聴牌" : "Ready";
  },

  yakuWorth(win, amount) {
    return win.limit_patterns ? limitText(amount) : fanText(amount);
  },

  value(win) {
    const text = !win.limit_patterns && win.han !== null && win.han !== undefined ? fanText(win.han) : "";
    return { text: text, limit: win.limit ? limitText(win.limit) : null, yakuman: false };
  },

  selfDraw: "winsBySelfDraw",
  fromDiscard: "winsOnTile"
};

export default uzje;

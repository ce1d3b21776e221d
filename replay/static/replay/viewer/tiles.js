/* Tiles and melds as DOM nodes. A tile is a body drawn by viewer.css with its face, an SVG of
   tiles/ (the vendored riichi set, or a face drawn in its style by tiles/make_faces.py), on
   it; its name is its accessible label and tooltip. */

import { t, meldWords } from "./strings.js";
import { relation } from "./layout.js";

let faceBase = new URL("../tiles/", import.meta.url).href;

/** Where the faces are (the page says, from Django's static files). */
export function setFaceBase(url) {
  if (url) {
    faceBase = url.endsWith("/") ? url : url + "/";
  }
}

export function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) {
    node.className = className;
  }
  if (text !== undefined && text !== null) {
    node.textContent = text;
  }
  return node;
}

export function clear(node) {
  while (node.firstChild) {
    node.removeChild(node.firstChild);
  }
}

/** One tile in the notation (``null``: face down). ``extra``: more classes (``side`` for a
    tile turned sideways, ``drawn``, ``called``, ...). */
export function tile(code, notation, extra) {
  const node = element("span", "tile");
  const face = element("span", "face");
  node.appendChild(face);
  node.setAttribute("role", "img");
  if (!code) {
    node.className += " back";
    node.setAttribute("aria-label", t("hiddenTile"));
    node.title = t("hiddenTile");
  } else {
    node.setAttribute("data-tile", code);
    const label = notation.label(code) || t("unknownTile", { code: code });
    const file = notation.face(code) || "Blank.svg";
    const picture = document.createElement("img");
    picture.className = "pic";
    picture.alt = "";
    picture.draggable = false;
    picture.src = faceBase + file;
    node.setAttribute("data-face", file);
    face.appendChild(picture);
    if (notation.red(code)) {
      node.className += " red";
    }
    node.setAttribute("aria-label", label);
    node.title = label;
  }
  if (extra) {
    node.className += " " + extra;
  }
  return node;
}

export function tiles(codes, notation, extra) {
  const group = document.createDocumentFragment();
  codes.forEach((code) => group.appendChild(tile(code, notation, extra)));
  return group;
}

const ARROWS = { left: "\u2190", right: "\u2192", across: "\u2191" };

/** A meld's upright tiles and its sideways columns (see layout.handUnits). */
export function meldShape(group, notation) {
  if (group.type === "closed_kan" || notation.upright || group.from === null || group.from === undefined || !group.called) {
    return { tiles: group.tiles.length, turned: 0 };
  }
  // An added kan stacks its added tile on the called one: one turned column.
  return { tiles: group.tiles.length - (group.type === "added_kan" ? 2 : 1), turned: 1 };
}

/**
 * A called meld as on a real table: the called tile turned sideways on the side of the player
 * it came from (left: the player before, middle: across, right: the player after), the added
 * tile of an added kan turned on top of it, a closed kan with its ends face down. Ùzje melds
 * stay upright (its rules), the claimed tile outlined. ``names(seat)`` gives a player's name.
 */
export function meld(group, owner, count, notation, names) {
  const node = element("span", "meld meld-" + group.type);
  const codes = group.tiles.slice();
  node.setAttribute("data-type", group.type);
  if (group.type === "closed_kan") {
    codes.forEach((code, index) => {
      node.appendChild(tile(index === 0 || index === codes.length - 1 ? null : code, notation));
    });
    node.title = t("closedKan");
    return node;
  }
  const from = group.from;
  const called = group.called;
  const index = called ? codes.indexOf(called) : -1;
  if (index < 0 || from === null || from === undefined) {
    node.appendChild(tiles(codes, notation));
    node.title = meldWords(group.shape || group.type);
    return node;
  }
  const side = relation(from, owner, count);
  node.setAttribute("data-from", String(from));
  node.setAttribute("data-side", side);
  node.title = t("meldFrom", { meld: meldWords(group.shape || group.type), name: names(from) });
  const source = element("span", "meld-from", ARROWS[side] + " " + names(from));
  if (notation.upright) {
    codes.forEach((code, position) => {
      node.appendChild(tile(code, notation, position === index ? "called-tile upright" : ""));
    });
    node.appendChild(source);
    return node;
  }
  codes.splice(index, 1);
  let calledNode = tile(called, notation, "side called-tile");
  if (group.type === "added_kan") {
    const stack = element("span", "stack");
    stack.appendChild(tile(codes.pop(), notation, "side added-tile"));
    stack.appendChild(calledNode);
    calledNode = stack;
  }
  const where = side === "left" ? 0 : side === "right" ? codes.length : 1;
  codes.forEach((code, position) => {
    if (position === where) {
      node.appendChild(calledNode);
    }
    node.appendChild(tile(code, notation));
  });
  if (where >= codes.length) {
    node.appendChild(calledNode);
  }
  node.appendChild(source);
  return node;
}

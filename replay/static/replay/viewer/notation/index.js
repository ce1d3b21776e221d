/* The tile notations, one module per family (the frames' ``notation``: "mpsz" unless said). */

import mpsz from "./mpsz.js";
import uzje from "./uzje.js";

export const NOTATIONS = { mpsz: mpsz, uzje: uzje };

/** The notation of a round's frames (the round's ``notation``, else its first frame's). */
export function notationOf(body) {
  const first = body && body.frames && body.frames[0];
  const name = (body && body.notation) || (first && first.notation) || "mpsz";
  return NOTATIONS[name] || mpsz;
}

/* The analysis panel beside the table: the viewed seat's shanten and, when it is tenpai, its
   waits with the copies of each it cannot see (the engine's figures, from the frames). The
   study aids of analysis.js will be drawn here too. */

import { t } from "./strings.js";
import { clear, element, tile } from "./tiles.js";
import { discardChoices } from "./analysis.js";

export function renderAnalysis(panel, frame, seat, context) {
  const notation = context.notation;
  const view = frame.seats[seat];
  panel.querySelector(".seat-name").textContent = context.names(seat);
  const line = panel.querySelector(".shanten");
  const shanten = view.shanten;
  let text;
  if (!notation.shantenKnown && (shanten === null || shanten === undefined)) {
    // The engine has no exact shanten for Ùzje: only complete and ready hands are shown.
    text = t("noUzjeShanten");
  } else if (shanten === null || shanten === undefined) {
    text = "";
  } else if (shanten < 0) {
    text = t("complete");
  } else if (shanten === 0) {
    text = notation.shantenKnown ? t("tenpai") : t("ready");
  } else {
    text = t("shanten", { n: shanten, s: shanten === 1 ? "" : "s" });
  }
  line.textContent = text;
  line.setAttribute("data-shanten", String(shanten));
  const box = panel.querySelector(".waits");
  clear(box);
  const waits = view.waits || [];
  if (waits.length) {
    let total = 0;
    box.appendChild(element("span", "label", t("waits")));
    const list = element("ul", "wait-list");
    list.setAttribute("data-part", "waits");
    waits.forEach((wait) => {
      total += wait.unseen;
      const item = element("li", "wait" + (wait.unseen === 0 ? " dead" : ""));
      item.setAttribute("data-tile", wait.tile);
      item.setAttribute("data-unseen", String(wait.unseen));
      item.appendChild(tile(wait.tile, notation));
      item.appendChild(element("span", "unseen", "\u00d7" + wait.unseen));
      item.title = t("unseen", { n: wait.unseen });
      list.appendChild(item);
    });
    box.appendChild(list);
    box.appendChild(element("span", "total", t("unseenInAll", { n: total })));
  } else if (shanten === 0 && view.drawn) {
    box.appendChild(element("span", "muted", t("waitsAfterDiscard")));
  }
  // The study aids (analysis.js) have nothing to show yet.
  discardChoices(frame, seat);
}

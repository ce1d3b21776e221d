/* Study aids: what the viewer works out itself from the frames, beyond what the engine says.

   Empty for now. Issue 24's study aids come here as pure functions of the frames (no DOM), so
   that tests/browser/test_viewer_modules.py can check them against counts worked out by hand:

   - ``discardChoices(frame, seat)``: for the player to move, each possible discard with its tile
     acceptance (which tiles, and how many copies are still unseen from that seat), best first;
   - ``decisionSteps(frames, seat)``: the steps where the seat chose a discard, for the keys that
     jump to the previous or next decision;
   - ``summary(frames, seat)``: how often the seat's discard kept the most acceptance.

   panel.js draws what they return in the analysis panel; until then it draws the engine's own
   figures (shanten, waits with unseen copies). */

/** The discards the seat could make at ``frame`` with their acceptance: not computed yet. */
export function discardChoices(frame, seat) {
  void frame;
  void seat;
  return null;
}

// Keeps the address's fragment equal to the case a moment after the last
// change, and says how long the link has grown.

import { caseFragment } from "./case-link.js";
import { count } from "./dom.js";

/** @typedef {import("./case.js").Case} Case */

// Chromium starts truncating what it shows of longer URLs; the link still
// works, but may not survive every place it is pasted.
const LONG_LINK = 2_000_000;
// Compressing a large case on every keystroke would compete with typing.
const SETTLE_MS = 150;

export class LinkKeeper {
  /**
   * @param {() => Case} current the case as it stands
   * @param {HTMLElement} status where the link's state is said
   */
  constructor(current, status) {
    this.current = current;
    this.status = status;
    /** The fragment last written, to tell this page's writes from a link pasted into the address. */
    this.written = "";
    this.timer = 0;
    this.round = 0;
  }

  /** The case changed: write the link once changes settle. */
  schedule() {
    this.status.textContent = "Link: updating…";
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.write(), SETTLE_MS);
  }

  async write() {
    const round = ++this.round;
    const fragment = await caseFragment(this.current());
    // A later change already asked for a newer link.
    if (round !== this.round) return;
    this.written = fragment;
    history.replaceState(null, "", fragment);
    const warning =
      location.href.length > LONG_LINK ? "; long enough that some places may cut it" : "";
    this.status.textContent = `Link up to date (${count(location.href.length)} characters${warning}).`;
  }

  /** Whether the address now holds a fragment this page did not write. */
  foreign() {
    return location.hash !== this.written;
  }
}

// The sweeplab board: draws the state Python sends (traitlets) and sends back what the user does.
// Nothing here knows the rules: Python owns the game and the methods, and resends the whole state after
// every action, so the view is always redrawn from scratch from the model.

const SVG = "http://www.w3.org/2000/svg";
const COVERED = -1, FLAG = -2, MINE = -3, NOCLUE = -4;
// the proof colours of sweeplab.plot_proof
const ADDED = "#1f5fd1", SUBTRACTED = "#e07b00", MIXED = "#7a7a7a";
// the probability scale runs from blue (0) to orange (1), never as light as a revealed cell
const LOW = [44, 123, 182], HIGH = [230, 97, 1];
const DRAWN = ["grid", "status", "summary", "message", "layout", "safe", "mines", "proofs", "unproved", "unproved_reasons",
  "probabilities", "methods", "method", "agents", "agent", "levels", "level", "flag_mode", "show_probabilities",
  "show_marks", "panel", "matrix", "game_id"];

// JupyterLab's one-key shortcuts ("d d" deletes the cell) act on a focused control unless it says not to:
// Lumino reads the attribute on the focused element itself, not on the widget around it
const CONTROLS = new Set(["button", "select", "input"]);

function html(tag, attrs = {}, parent = null, text = null) {
  const node = document.createElement(tag);
  if (CONTROLS.has(tag)) node.setAttribute("data-lm-suppress-shortcuts", "true");
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

function svg(tag, attrs = {}, parent = null, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

export function probabilityColour(p) {
  const mix = LOW.map((lo, i) => Math.round(lo + (HIGH[i] - lo) * p));
  return `rgb(${mix.join(",")})`;
}

function percent(p) {
  if (p > 0 && p < 0.005) return "<1%";
  if (p < 1 && p > 0.995) return ">99%";
  return `${Math.round(100 * p)}%`;
}

// a probability in the cell panel: a percentage, or what 0 and 1 mean
function percentText(p) {
  if (p === 0) return "0, certainly safe";
  if (p === 1) return "1, certainly a mine";
  return `${(100 * p).toFixed(p < 0.001 || p > 0.999 ? 3 : 1)}%`;
}

function cellSize(cols) {
  return Math.max(20, Math.min(34, Math.floor(780 / Math.max(cols, 1))));
}
// the least a cell is drawn when the board shrinks to a narrow window (board.css)
const MIN_CELL = 16;
// the margin above and left of the cells that holds the column and row numbers proofs name cells by
const margin = (s) => Math.round(s * 0.75);

const key = (r, c) => `${r},${c}`;
const keys = (cells) => new Set(cells.map(([r, c]) => key(r, c)));

function stateOf(v) {
  if (v === COVERED) return "covered";
  if (v === FLAG) return "flag";
  if (v === MINE) return "mine";
  if (v === NOCLUE) return "noclue";
  return "open";
}

function mineGlyph(parent, s, cls) {
  const g = svg("g", { class: cls }, parent);
  svg("circle", { cx: s / 2, cy: s / 2, r: s * 0.22 }, g);
  for (const [dx, dy] of [[1, 0], [0, 1], [0.7, 0.7], [0.7, -0.7]]) {
    svg("line", { x1: s / 2 - dx * s * 0.32, y1: s / 2 - dy * s * 0.32, x2: s / 2 + dx * s * 0.32,
      y2: s / 2 + dy * s * 0.32 }, g);
  }
}

function flagGlyph(parent, s) {
  const g = svg("g", { class: "sl-flag" }, parent);
  svg("line", { x1: s * 0.42, y1: s * 0.2, x2: s * 0.42, y2: s * 0.78, class: "sl-flag-pole" }, g);
  svg("path", { d: `M${s * 0.44},${s * 0.2} L${s * 0.76},${s * 0.34} L${s * 0.44},${s * 0.48} Z`,
    class: "sl-flag-cloth" }, g);
  svg("line", { x1: s * 0.28, y1: s * 0.78, x2: s * 0.6, y2: s * 0.78, class: "sl-flag-pole" }, g);
}

// a flag found wrong at the end of the game: crossed out
function wrongFlag(parent, s) {
  svg("path", { d: `M3,3 L${s - 3},${s - 3}`, class: "sl-wrong" }, parent);
}

function safeMark(parent, s) {
  svg("circle", { cx: s / 2, cy: s / 2, r: s * 0.24, class: "sl-mark-safe" }, parent);
}

function mineMark(parent, s) {
  const g = svg("g", { class: "sl-mark-mine" }, parent);
  const a = s * 0.26, b = s * 0.74;
  svg("line", { x1: a, y1: a, x2: b, y2: b }, g);
  svg("line", { x1: a, y1: b, x2: b, y2: a }, g);
}

function drawCell(parent, r, c, v, s, view) {
  const k = key(r, c);
  const g = svg("g", { class: "sl-cell", transform: `translate(${c * s},${r * s})`, "data-row": r,
    "data-col": c, "data-state": stateOf(v), "data-value": v }, parent);
  const title = [`(${r},${c})`];
  if (v >= 0 || v === NOCLUE) {
    svg("rect", { width: s, height: s, class: "sl-open" }, g);
    if (v > 0) svg("text", { x: s / 2, y: s / 2, class: `sl-digit sl-d${v}`, "font-size": s * 0.62 }, g, `${v}`);
    if (v === NOCLUE) svg("text", { x: s / 2, y: s / 2, class: "sl-noclue", "font-size": s * 0.5 }, g, "–");
    title.push(v === NOCLUE ? "revealed, number hidden" : `clue ${v}`);
  } else if (v === MINE) {
    svg("rect", { width: s, height: s, class: "sl-open sl-hit" }, g);
    mineGlyph(g, s, "sl-mine");
    title.push("mine (stepped on)");
  } else {
    svg("rect", { width: s, height: s, class: "sl-covered" }, g);
    svg("path", { d: `M1,${s - 1} L1,1 L${s - 1},1`, class: "sl-bevel-light" }, g);
    svg("path", { d: `M1,${s - 1} L${s - 1},${s - 1} L${s - 1},1`, class: "sl-bevel-dark" }, g);
    const p = view.probs.length ? view.probs[r][c] : null;
    const mark = !view.showMarks ? null : view.safe.has(k) ? "safe" : view.mines.has(k) ? "mine" : null;
    if (mark) g.dataset.mark = mark;
    if (p !== null && p !== undefined && v !== FLAG) {  // a flag is taken as a mine, not weighed
      g.dataset.probability = p;
      title.push(`P(mine) = ${p.toFixed(4)}`);
      if (view.showProbs && v === COVERED && !mark) {
        svg("rect", { x: s * 0.12, y: s * 0.12, width: s * 0.76, height: s * 0.76, rx: 2,
          fill: probabilityColour(p), class: "sl-prob" }, g);
        if (s >= 28) {
          svg("text", { x: s / 2, y: s / 2, class: "sl-prob-label", "font-size": s * 0.3 }, g, percent(p));
        }
      }
    }
    if (v === FLAG) {
      flagGlyph(g, s);
      title.push("flagged (counts as a mine)");
      if (view.layout.size && !view.layout.has(k)) {
        wrongFlag(g, s);
        title.push("a wrong flag: no mine here");
      }
    } else if (view.layout.has(k)) {
      mineGlyph(g, s, "sl-mine sl-mine-hidden");
    }
    if (mark === "safe") safeMark(g, s);
    if (mark === "mine") mineMark(g, s);
    if (mark) title.push(`${view.method}: ${mark === "safe" ? "safe" : "a mine"}`);
  }
  svg("title", {}, g, title.join(" · "));
}

// a proof source's colour and text from its multipliers, one per step that uses it
const sourceColour = (ms) => (Math.min(...ms) > 0 ? ADDED : Math.max(...ms) < 0 ? SUBTRACTED : MIXED);
const multipliers = (ms) => ms.map((m) => (m > 0 ? `+${m}` : `${m}`)).join(",");

function drawProof(parent, proof, s) {
  const g = svg("g", { class: "sl-proof" }, parent);
  for (const [r, c] of proof.cells) {
    svg("rect", { x: c * s + 3, y: r * s + 3, width: s - 6, height: s - 6, class: "sl-proof-cell" }, g);
  }
  for (const source of proof.sources) {
    if (source[0] === "total") continue;
    const [r, c, ms] = source;
    const colour = sourceColour(ms);
    svg("rect", { x: c * s + 1.5, y: r * s + 1.5, width: s - 3, height: s - 3, stroke: colour,
      class: "sl-proof-clue", "data-row": r, "data-col": c }, g);
    // the multipliers on a badge above the cell's top right corner, clear of the digit in its middle
    const label = multipliers(ms);
    const size = Math.max(10, s * 0.36);
    const width = label.length * size * 0.62 + 4;
    const top = r * s - size * 0.55;  // on the first row, in the margin over the column numbers
    svg("rect", { x: c * s + s - width, y: top, width, height: size + 2, rx: 3, stroke: colour,
      class: "sl-proof-badge", "data-row": r, "data-col": c }, g);
    svg("text", { x: c * s + s - 2, y: top + 1.5, fill: colour, class: "sl-proof-mult", "font-size": size },
      g, label);
  }
}

// one legend entry: a cell of rect class cls (null: no cell), the marks drawn on it, and its words
function legendItem(parent, cls, marks, text) {
  const item = html("span", { class: "sl-legend-item" }, parent);
  const pic = svg("svg", { width: 18, height: 18, viewBox: "0 0 18 18" }, item);
  if (cls) svg("rect", { width: 18, height: 18, class: cls }, pic);
  for (const mark of marks) mark(pic, 18);
  html("span", {}, item, text);
}

function drawLegend(legend, showProbs, showMarks, over) {
  legend.replaceChildren();
  legendItem(legend, "sl-covered", [], "covered");
  legendItem(legend, "sl-open", [], "revealed");
  legendItem(legend, null, [flagGlyph], "flag");
  if (showMarks) {
    legendItem(legend, "sl-covered", [safeMark], "method: safe");
    legendItem(legend, "sl-covered", [mineMark], "method: mine");
  }
  if (showProbs) {
    const item = html("span", { class: "sl-legend-item" }, legend);
    html("span", {}, item, "P(mine) 0%");
    html("span", { class: "sl-scale", style: `background: linear-gradient(to right, ${probabilityColour(0)}, `
      + `${probabilityColour(0.5)}, ${probabilityColour(1)})` }, item);
    html("span", {}, item, "100%");
  }
  const proof = html("span", { class: "sl-legend-item" }, legend);
  html("span", { class: "sl-key", style: `border-color: ${ADDED}` }, proof);
  html("span", { class: "sl-key", style: `border-color: ${SUBTRACTED}` }, proof);
  html("span", { class: "sl-key", style: `border-color: ${MIXED}` }, proof);
  html("span", {}, proof, "proof: clue added / subtracted / both");
  html("span", { class: "sl-proof-total" }, proof);  // the total mine count, when a proof uses it (no cell)
  if (!over) return;  // the marks of a finished game
  legendItem(legend, "sl-open sl-hit", [(p, s) => mineGlyph(p, s, "sl-mine")], "mine stepped on");
  legendItem(legend, "sl-covered", [(p, s) => mineGlyph(p, s, "sl-mine sl-mine-hidden")], "mine left covered");
  legendItem(legend, "sl-covered", [flagGlyph, wrongFlag], "wrong flag");
}

function fixesText(fixes, columns) {
  return fixes.map(([j, v]) => `${columns[j].name}=${v}`).join(" ");
}

function drawMatrix(box, table, selectedColumn, proof) {
  box.replaceChildren();
  if (!table || !table.kind) return;
  html("div", { class: "sl-matrix-note" }, box,
    `${table.kind === "rref" ? "RREF of [A | b]" : "[A | b]"}: ${table.note}`);
  if (!table.rows.length) return;
  const columns = table.columns;
  const uses = new Map();
  if (proof) for (const s of proof.sources) uses.set(s[0] === "total" ? "total" : key(s[0], s[1]), s[s.length - 1]);
  const scroller = html("div", { class: "sl-matrix-scroll" }, box);
  const t = html("table", { class: "sl-matrix-table" }, scroller);
  const head = html("tr", {}, html("thead", {}, t));
  html("th", { class: "sl-rowhead" }, head, table.kind === "rref" ? "row" : "clue");
  columns.forEach((c, j) => {
    const th = html("th", { title: c.cell ? `cell (${c.cell[0]},${c.cell[1]})` : `${c.count} interior cells` },
      head, c.cell ? c.name : `int.×${c.count}`);
    if (j === selectedColumn) th.classList.add("sl-col-selected");
  });
  html("th", {}, head, "b");
  html("th", {}, head, table.kind === "rref" ? "row bound fixes" : "bound fixes");
  const body = html("tbody", {}, t);
  let first = null;
  for (const row of table.rows) {
    const tr = html("tr", {}, body);
    const source = row.source === null ? null : row.source === "total" ? "total" : key(...row.source);
    const ms = source === null ? undefined : uses.get(source);
    const label = html("th", { class: "sl-rowhead" }, tr, row.label);
    if (ms) {
      tr.classList.add("sl-row-proof");
      html("span", { class: "sl-mult" }, label, ` ×${ms.map((m) => (m > 0 ? `+${m}` : `${m}`)).join(",")}`);
    } else if (table.kind === "rref" && selectedColumn >= 0) {
      if (row.fixes.some(([j]) => j === selectedColumn)) tr.classList.add("sl-row-proof");
      else if (row.values[selectedColumn] !== "0") tr.classList.add("sl-row-touch");
    }
    if (tr.classList.contains("sl-row-proof") && first === null) first = tr;
    row.values.forEach((v, j) => {
      const td = html("td", {}, tr, v === "0" ? "·" : v);
      if (v === "0") td.classList.add("sl-zero");
      if (j === selectedColumn) td.classList.add("sl-col-selected");
    });
    html("td", { class: "sl-b" }, tr, row.b);
    html("td", { class: "sl-fixes" }, tr, fixesText(row.fixes, columns));
  }
  if (first) scroller.scrollTop = Math.max(0, first.offsetTop - 40);
}

function render({ model, el }) {
  el.classList.add("sweeplab-explorer");
  let selected = null; // the cell whose details show: the last one hovered, kept when the pointer leaves
  let keyed = false; // selected from the keyboard (the keys act on it), not merely hovered
  let gameId = model.get("game_id");

  // every message names the game it was sent from: Python ignores one sent before New game or a level change
  const send = (event, extra = {}) => model.send({ event, game: model.get("game_id"), ...extra });
  const set = (name, value) => { model.set(name, value); model.save_changes(); };

  // toolbar: built once, its values follow the model
  const bar = html("div", { class: "sl-toolbar" }, el);
  const newButton = html("button", { class: "sl-new", title: "start a new game (next seed)" }, bar, "New game");
  newButton.addEventListener("click", () => send("new"));
  const levelLabel = html("label", {}, bar, "level ");
  const levelSelect = html("select", { class: "sl-level", title: "a new game on this level",
                                       "aria-label": "level (a new game)" }, levelLabel);
  levelSelect.addEventListener("change", () => set("level", levelSelect.value));
  const methodLabel = html("label", {}, bar, "method ");
  const methodSelect = html("select", { class: "sl-method" }, methodLabel);
  methodSelect.addEventListener("change", () => set("method", methodSelect.value));
  const applyButton = html("button", { class: "sl-apply", title: "play every deduction of the method" }, bar,
    "Apply");
  applyButton.addEventListener("click", () => send("apply"));
  const agentLabel = html("label", {}, bar, "agent ");
  const agentSelect = html("select", { class: "sl-agent" }, agentLabel);
  agentSelect.addEventListener("change", () => set("agent", agentSelect.value));
  const stepButton = html("button", { class: "sl-step", title: "one turn of the agent" }, bar, "Agent step");
  stepButton.addEventListener("click", () => send("agent_step"));
  const flagButton = html("button", { class: "sl-flag-mode", title: "left clicks flag and unflag" }, bar,
    "⚑ flag mode");
  flagButton.addEventListener("click", () => set("flag_mode", !model.get("flag_mode")));
  const probLabel = html("label", { class: "sl-probs" }, bar);
  const probBox = html("input", { type: "checkbox" }, probLabel);
  probLabel.append(" probabilities");
  probBox.addEventListener("change", () => set("show_probabilities", probBox.checked));
  const marksLabel = html("label", { class: "sl-marks",
    title: "the method's safe cells, mines and proofs on the board; clear it to play unaided" }, bar);
  const marksBox = html("input", { type: "checkbox" }, marksLabel);
  marksLabel.append(" deductions");
  marksBox.addEventListener("change", () => set("show_marks", marksBox.checked));
  const panels = html("span", { class: "sl-panels" }, bar);
  html("span", {}, panels, "matrix ");
  const panelButtons = {};
  for (const [name, text] of [["none", "off"], ["matrix", "[A | b]"], ["rref", "RREF"]]) {
    const b = html("button", { class: `sl-panel-${name}` }, panels, text);
    b.addEventListener("click", () => set("panel", name));
    panelButtons[name] = b;
  }

  const status = html("div", { class: "sl-status", role: "status", "aria-live": "polite" }, el);
  const main = html("div", { class: "sl-main" }, el);
  const boardBox = html("div", { class: "sl-board-box" }, main);
  // the board's own scroll box: below the board's min-width it scrolls, not the page (also when stacked)
  const boardScroll = html("div", { class: "sl-board-scroll" }, boardBox);
  // JupyterLab opens its own menu on a right click unless told not to: the right click flags
  // ...and its own shortcuts on keys the board uses (data-lm-suppress-shortcuts)
  const board = svg("svg", { class: "sl-board", role: "application", tabindex: 0,
                             "data-jp-suppress-context-menu": "", "data-lm-suppress-shortcuts": "true",
                             "aria-label": "Minesweeper board: click a cell to reveal it, right-click to flag it; "
                               + "from the keyboard, arrows move, Enter or Space reveals, F flags" },
                    boardScroll);
  const legend = html("div", { class: "sl-legend" }, boardBox);
  const side = html("div", { class: "sl-side" }, main);
  const info = html("div", { class: "sl-info" }, side);
  const matrix = html("div", { class: "sl-matrix" }, side);

  const cellOf = (event) => {
    const g = event.target.closest && event.target.closest("g.sl-cell");
    return g ? [Number(g.dataset.row), Number(g.dataset.col)] : null;
  };
  board.addEventListener("click", (event) => {
    const cell = cellOf(event);
    if (cell) send("click", { row: cell[0], col: cell[1] });
  });
  board.addEventListener("contextmenu", (event) => {
    event.preventDefault();
    event.stopPropagation();
    const cell = cellOf(event);
    if (cell) send("flag", { row: cell[0], col: cell[1] });
  });
  // the keyboard: arrows move the selected cell, Enter or Space acts as a left click, F as a right click.
  // They act only on a cell the keyboard selected (keyed): a cell merely hovered, or none, is selected
  // first, and Space then scrolls the page as usual.
  const MOVES = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  board.addEventListener("keydown", (event) => {
    const grid = model.get("grid");
    // keys with a modifier are the browser's and JupyterLab's (Ctrl+F finds, Shift+Enter runs a cell)
    if (!grid.length || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.shiftKey && event.key.toLowerCase() !== "f") return;  // Shift+F flags, with CapsLock too
    const [r, c] = selected === null ? [0, 0] : selected.split(",").map(Number);
    const acts = event.key === "Enter" || event.key === " " || event.key === "f" || event.key === "F";
    if (acts && !keyed) {
      if (event.key === " ") return;
      selected = key(r, c);
      keyed = true;
      drawDetails();
    } else if (event.key in MOVES) {
      keyed = true;
      const [dr, dc] = MOVES[event.key];
      const nr = Math.min(grid.length - 1, Math.max(0, r + (selected === null ? 0 : dr)));
      const nc = Math.min(grid[0].length - 1, Math.max(0, c + (selected === null ? 0 : dc)));
      selected = key(nr, nc);
      drawDetails();
    } else if (event.key === "Enter" || event.key === " ") {
      send("click", { row: r, col: c });
    } else if (event.key === "f" || event.key === "F") {
      send("flag", { row: r, col: c });
    } else {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
  });
  // mousemove, not mouseover: a redraw puts new cells under a resting pointer, and the browser then
  // sends mouseover, which would take the selection from the keyboard to the pointer's cell
  board.addEventListener("mousemove", (event) => {
    const cell = cellOf(event);
    if (cell && key(...cell) !== selected) {
      selected = key(...cell);
      keyed = false;
      drawDetails();
    }
  });

  function drawInfo() {
    info.replaceChildren();
    const grid = model.get("grid");
    if (selected === null || !grid.length) {
      html("div", { class: "sl-hint" }, info, "Hover a cell for its exact mine probability and, for a cell the "
        + "method deduced, its proof. Left click reveals, right click (or flag mode) flags and unflags. "
        + "From the keyboard: Tab to the board, arrows move, Enter or Space reveals, F flags.");
      return;
    }
    const [r, c] = selected.split(",").map(Number);
    const v = grid[r][c];
    const probs = model.get("probabilities");
    const p = probs.length ? probs[r][c] : null;
    const marks = model.get("show_marks");
    const layout = keys(model.get("layout"));  // sent once the game is over
    let line = `(${r},${c}): `;
    if (v >= 0) line += `revealed, clue ${v}`;
    else if (v === NOCLUE) line += "revealed, number hidden";
    else if (v === MINE) line += "a mine, stepped on";
    else if (layout.size) {
      const mine = layout.has(selected);
      line += v === FLAG ? (mine ? "flagged, a mine" : "flagged, but safe: a wrong flag") :
        `covered, ${mine ? "a mine" : "safe"}`;
    } else line += v === FLAG ? "flagged: every method takes it as a mine (unflag it to weigh it)" : "covered";
    // with the deductions hidden the probability shows only where the board draws it
    if (p !== null && p !== undefined && v === COVERED && (marks || model.get("show_probabilities"))) {
      line += ` · P(mine) = ${percentText(p)} (${model.get("probability_kind") || "exact"})`;
      const claimed = keys(model.get("safe")).has(selected) || keys(model.get("mines")).has(selected);
      if (marks && (p === 0 || p === 1) && !claimed && (model.get("probability_kind") || "exact") === "exact") {
        line += `; ${model.get("method")} does not deduce it (enumerate does)`;
      }
    }
    html("div", { class: "sl-info-cell" }, info, line);
    if (!marks) return;
    const proof = model.get("proofs")[selected];
    if (proof) {
      html("div", { class: "sl-info-proof" }, info,
        `${model.get("method")}: ${proof.value ? "a mine" : "safe"} · a proof of this claim ` +
        `(sweeplab's prover, whatever the method): ${proof.size}`);
      html("pre", { class: "sl-proof-text" }, info, proof.text);
    } else if (keys(model.get("unproved")).has(selected)) {
      const why = (model.get("unproved_reasons") || {})[selected] || "no proof found";
      html("div", { class: "sl-info-proof" }, info, `${model.get("method")} claims this cell, without a proof: ${why}`);
    }
  }

  function drawDetails() {
    const proofs = model.get("proofs");
    const proof = selected === null || !model.get("show_marks") ? null : proofs[selected];
    board.querySelectorAll(".sl-proof, .sl-selected").forEach((n) => n.remove());
    board.querySelectorAll(".sl-axis-on").forEach((n) => n.classList.remove("sl-axis-on"));
    const s = Number(board.dataset.cell);
    const area = board.querySelector(".sl-area");
    if (!area) return;
    if (proof) drawProof(area, proof, s);
    const totalNote = legend.querySelector(".sl-proof-total");
    const total = proof && proof.sources.find((source) => source[0] === "total");
    if (totalNote) {
      totalNote.textContent = total ? `, and the total number of mines: ${multipliers(total[1])}` : "";
      totalNote.style.color = total ? sourceColour(total[1]) : "";
    }
    if (selected !== null) {
      const [r, c] = selected.split(",").map(Number);
      svg("rect", { x: c * s + 0.5, y: r * s + 0.5, width: s - 1, height: s - 1, class: "sl-selected" }, area);
      // the selected cell's row and column numbers stand out, to read it as a proof names it
      for (const n of board.querySelectorAll(`.sl-axis-row[data-index="${r}"], .sl-axis-col[data-index="${c}"]`)) {
        n.classList.add("sl-axis-on");
      }
    }
    drawInfo();
    drawMatrix(matrix, model.get("matrix"), selectedColumn(), proof);
  }

  // the matrix column of the selected cell; interior cells (off the frontier) share one column
  function selectedColumn() {
    const columns = model.get("matrix").columns;
    if (selected === null || !columns) return -1;
    const j = columns.findIndex((c) => c.cell && key(...c.cell) === selected);
    if (j >= 0) return j;
    const [r, c] = selected.split(",").map(Number);
    return model.get("grid")[r][c] === COVERED ? columns.findIndex((col) => col.count) : -1;
  }

  function draw() {
    if (model.get("game_id") !== gameId) {
      gameId = model.get("game_id");
      selected = null;
      keyed = false;
    }
    const grid = model.get("grid");
    const rows = grid.length, cols = rows ? grid[0].length : 0;
    const s = cellSize(cols), m = margin(s);
    board.replaceChildren();
    board.setAttribute("width", cols * s + m);
    board.setAttribute("height", rows * s + m);
    board.setAttribute("viewBox", `0 0 ${cols * s + m} ${rows * s + m}`);
    board.style.minWidth = `${cols * MIN_CELL + margin(MIN_CELL)}px`;
    board.dataset.cell = s;
    board.dataset.margin = m;
    board.dataset.status = model.get("status");
    const view = {
      safe: keys(model.get("safe")), mines: keys(model.get("mines")), layout: keys(model.get("layout")),
      probs: model.get("probabilities"), showProbs: model.get("show_probabilities"), method: model.get("method"),
      showMarks: model.get("show_marks"),
    };
    const axes = svg("g", { class: "sl-axes", "font-size": Math.max(9, s * 0.4) }, board);
    for (let r = 0; r < rows; r++) {
      svg("text", { x: m - 3, y: m + r * s + s / 2, class: "sl-axis sl-axis-row", "data-index": r }, axes, `${r}`);
    }
    for (let c = 0; c < cols; c++) {
      svg("text", { x: m + c * s + s / 2, y: m - 3, class: "sl-axis sl-axis-col", "data-index": c }, axes, `${c}`);
    }
    const area = svg("g", { class: "sl-area", transform: `translate(${m},${m})` }, board);
    const cells = svg("g", { class: "sl-cells" }, area);
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) drawCell(cells, r, c, grid[r][c], s, view);
    board.classList.toggle("sl-over", model.get("status") !== "playing");

    methodSelect.replaceChildren();
    for (const m of model.get("methods")) {
      const o = html("option", { value: m.name, title: m.summary }, methodSelect,
        m.sound ? m.name : `${m.name} (unsound)`);
      if (m.name === model.get("method")) o.selected = true;
    }
    levelSelect.replaceChildren();
    for (const l of model.get("levels")) {
      const o = html("option", { value: l }, levelSelect, l);
      if (l === model.get("level")) o.selected = true;
    }
    agentSelect.replaceChildren();
    for (const a of model.get("agents")) {
      const o = html("option", { value: a }, agentSelect, a);
      if (a === model.get("agent")) o.selected = true;
    }
    flagButton.classList.toggle("sl-active", model.get("flag_mode"));
    flagButton.setAttribute("aria-pressed", model.get("flag_mode"));
    probBox.checked = model.get("show_probabilities");
    marksBox.checked = model.get("show_marks");
    for (const [name, b] of Object.entries(panelButtons)) {
      b.classList.toggle("sl-active", model.get("panel") === name);
      b.setAttribute("aria-pressed", model.get("panel") === name);
    }
    const playing = model.get("status") === "playing";
    applyButton.disabled = stepButton.disabled = !playing;

    status.replaceChildren();
    html("span", { class: `sl-chip sl-chip-${model.get("status")}` }, status, model.get("status"));
    html("span", { class: "sl-summary" }, status, model.get("summary").split(" · ").slice(1).join(" · "));
    if (model.get("message")) html("span", { class: "sl-message" }, status, model.get("message"));
    if (!playing) html("span", { class: "sl-message" }, status, "press New game to play again");
    legend.style.width = `${Math.max(cols * s + m, 300)}px`;
    drawLegend(legend, model.get("show_probabilities"), model.get("show_marks"), !playing);
    drawDetails();
    stack();
  }

  // When the side panel wraps below the board (a narrow notebook, a projector), it comes straight under
  // the board and the legend after it: the hovered cell's proof is then in view with the board.
  function stack() {
    main.classList.remove("sl-stacked");
    main.classList.toggle("sl-stacked", side.offsetTop > boardBox.offsetTop + 1);
  }
  const resized = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(() => stack());
  if (resized) resized.observe(el);

  // Python sends a whole state at once: draw once per batch of changes
  let pending = false;
  const schedule = () => {
    if (pending) return;
    pending = true;
    queueMicrotask(() => { pending = false; draw(); });
  };
  for (const name of DRAWN) model.on(`change:${name}`, schedule);
  draw();
  return () => {
    for (const name of DRAWN) model.off(`change:${name}`, schedule);
    if (resized) resized.disconnect();
  };
}

export default { render };

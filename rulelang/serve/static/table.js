// The table page of `rulelang serve`: draws one viewer's view of any rule file's game
// and sends that viewer's moves. It knows no game: boards are drawn by their shape
// (layout from rulelang/render/layout.py), the rest from the view (docs/api.md, "Views").
//
// Every text that comes from a rule file (names, prompts, options, log lines) is put
// into the page with textContent or as an SVG text node, never as markup: a rule file
// cannot inject anything into the page.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const PALETTE = ["#d95f02", "#1b9e77", "#7570b3", "#e7298a", "#66a61e", "#e6ab02",
  "#a6761d", "#1f78b4", "#b15928", "#6a3d9a", "#33a02c", "#fb9a99"];
const BLANK_FILL = "#f5f3ee";
// the narrowest a grid's cell is drawn (px): a wider grid scrolls sideways in its panel
const MIN_CELL = 34;
const FILLS = ["#e8f1d8", "#cfe3f6", "#f6dccf", "#efe3a8", "#e3d2f0", "#d4efe9",
  "#f3d1df", "#dcdcdc", "#f7ecd0", "#cde8c8", "#e9e0d2", "#d6d9f2"];

// ---------------------------------------------------------------- small helpers

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

// a value as a player reads it (as rulelang/render/board_map.py `text`)
// a text cut to `most` characters for a label in a drawing; the whole as its tooltip
function label(tag, attrs, text, most) {
  const whole = String(text);
  const node = svg(tag, attrs, whole.length > most ? whole.slice(0, most - 1) + "…" : whole);
  if (whole.length > most) node.append(svg("title", {}, whole));
  return node;
}

function show(value) {
  if (value === true) return "yes";
  if (value === false) return "no";
  if (value === null || value === undefined) return "none";
  if (Array.isArray(value)) return "[" + value.map(show).join(", ") + "]";
  return String(value);
}

function colourOf(map, key, palette) {
  if (!map.has(key)) map.set(key, palette[map.size % palette.length]);
  return map.get(key);
}

// ---------------------------------------------------------------- the page's state

// msg: the last state received; seq: its number, sent back with a move (a stale one is
// refused by the server); tracked: the piece attributes drawn as tracks
const state = { msg: null, socket: null, seq: null, retry: 0, tracked: {}, targets: new Map() };

// the legal options of this viewer's decision by text: an option naming a node or a
// cell of a board is marked on the board, and a tap there takes it
function targetsOf(msg) {
  const out = new Map();
  if (!msg.your_turn) return out;
  for (const o of msg.options || []) if (o.legal) out.set(o.text, o);
  return out;
}

function markTarget(g, key, w, h) {
  const option = state.targets.get(key);
  if (!option) return;
  g.classList.add("target");
  g.append(svg("rect", { x: 2, y: 2, width: w - 4, height: h - 4, rx: 6, class: "target-mark" }));
  g.setAttribute("role", "button");
  g.setAttribute("tabindex", "0");
  g.setAttribute("aria-label", option.text);
  g.addEventListener("click", () => sendMove(option));
  g.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); sendMove(option); }
  });
}

function viewerName(msg) {
  const v = msg.view;
  if (typeof v.viewer === "number" && v.viewer >= 0 && v.players[v.viewer]) {
    return v.players[v.viewer].name;
  }
  return "";
}

function hidden(layout, owner) {
  return new Set((layout.bookkeeping || {})[owner] || []);
}

// ---------------------------------------------------------------- header and decision

function renderHeader(msg) {
  const v = msg.view;
  const who = viewerName(msg);
  const role = msg.role === "master" ? "game master (sees everything)"
    : msg.role === "spectator" ? "spectator" : who ? `you are ${who}` : "";
  const turn = [`turn ${v.turn}`, v.round > 1 ? `round ${v.round}` : "", v.phase ? v.phase : ""]
    .filter(Boolean).join(" · ");
  let status;
  if (v.results) status = "game over";
  else if (v.to_act) status = v.to_act === who ? "your move" : `${v.to_act} to play`;
  else status = `${v.current} to play`;
  if (v.reacting) status += ` · ${v.reacting} may react`;
  return el("header", { id: "header" },
    el("h1", { text: v.title }),
    el("p", { class: "meta" },
      el("span", { class: "role", text: role }),
      el("span", { class: "turn", text: turn }),
      el("span", { id: "status", class: v.to_act === who && who ? "status mine" : "status",
        text: status })));
}

function renderDecision(msg) {
  const v = msg.view;
  const who = viewerName(msg);
  const box = el("section", { id: "decision", class: "panel" });
  if (v.results) {
    box.append(renderResults(v));
    return box;
  }
  const mine = msg.your_turn ?? (who && v.to_act === who && msg.role !== "master");
  // the server's refusal of this page's last move, whoever decides now
  if (state.refusal) box.append(el("p", { class: "refusal", role: "alert", text: state.refusal }));
  if (!mine) {
    const text = v.to_act ? `Waiting for ${v.to_act}…` : `Waiting for ${v.current}…`;
    box.append(el("p", { class: "waiting", text }));
    if (msg.role === "master" && v.prompt) {
      box.append(el("p", { class: "prompt other", text: `${v.to_act}: ${v.prompt}` }));
      box.append(el("p", { class: "options-list",
        text: (v.options || []).join(" · ") }));
    }
    return box;
  }
  box.classList.add("mine");
  box.append(el("h2", { class: "prompt", text: msg.prompt || v.prompt || "Your move" }));
  const options = msg.options && msg.options.length ? msg.options
    : (v.options || []).map((text, i) => ({ i, text, legal: true }));
  const list = el("div", { class: "options" });
  for (const o of options) list.append(optionButton(o));
  box.append(list);
  return box;
}

function optionButton(option) {
  if (option.legal) {
    return el("button", { class: "option", type: "button", "data-option": option.text,
      text: option.text, onclick: () => sendMove(option) });
  }
  // an illegal option: disabled, with the rule file's reason beside it
  return el("div", { class: "refused-option" },
    el("button", { class: "option", type: "button", disabled: "", "data-option": option.text,
      "aria-describedby": "", text: option.text }),
    el("span", { class: "reason", text: option.why || option.reason || "not allowed now" }));
}

function renderResults(v) {
  const rows = Object.entries(v.results);
  const winners = rows.filter(([, r]) => r === "win").map(([n]) => n);
  const drawers = rows.filter(([, r]) => r === "draw").map(([n]) => n);
  let headline = "Game over";
  if (winners.length) headline += `: ${winners.join(", ")} ${winners.length > 1 ? "win" : "wins"}`;
  else if (drawers.length) headline += ": a draw";
  const list = el("ul", { class: "results" });
  for (const [name, result] of rows) {
    list.append(el("li", { class: `result ${result}` },
      el("span", { class: "name", text: name }), el("span", { class: "badge", text: result })));
  }
  return el("div", { id: "game-over" }, el("h2", { text: headline }), list);
}

// ---------------------------------------------------------------- boards

// who and what stands on each node of a board: marks with a colour and a label
function occupants(msg, boardName, board) {
  const v = msg.view;
  const at = new Map();
  const put = (node, mark) => {
    if (typeof node !== "string") return;
    if (!at.has(node)) at.set(node, []);
    at.get(node).push(mark);
  };
  for (const { owner, attr } of board.placed || []) {
    if (owner === "player") {
      v.players.forEach((p, seat) => put(p[attr], { label: p.name, colour: PALETTE[seat % 12],
        title: `${p.name} (${attr})`, round: true }));
    } else if (owner === "global") {
      put((v.globals || {})[attr], { label: attr, colour: "#333", title: attr, flag: true });
    } else {
      (v.pieces[owner] || []).forEach((row, i) => put(row[attr], {
        label: show(row.name ?? `${owner} ${i + 1}`), colour: PALETTE[i % 12],
        title: `${show(row.name ?? owner)} (${attr})` }));
    }
  }
  return at;
}

function renderBoards(msg) {
  const out = [];
  for (const [name, board] of Object.entries(msg.layout.boards)) {
    const parts = [];
    if (board.shape === "grid") {
      const tiles = msg.view.boards[name];
      const stateOf = (msg.view.board_state || {})[name] || {};
      if (tiles) parts.push(tileMap(msg, name, board, tiles));
      const declared = Object.values(msg.layout.board_attrs).some((a) => a.board === name);
      if (Object.keys(stateOf).length || (!tiles && !declared && board.bounded)) {
        parts.push(...stateMap(msg, name, board, stateOf));
      } else if (declared && !tiles) {
        parts.push(el("p", { class: "hidden-map", text: "What lies on this board is hidden from you." }));
      }
    } else {
      parts.push(nodeBoard(msg, name, board));
    }
    if (!parts.length) continue;
    out.push(el("section", { class: "panel board", "data-board": name },
      el("h2", { text: name }), el("div", { class: "scroller" }, ...parts)));
  }
  return out;
}

// a ring (nodes round an ellipse) or a line (nodes in rows, back and forth)
function nodeBoard(msg, name, board) {
  const names = board.names;
  const at = occupants(msg, name, board);
  const states = (msg.view.board_state || {})[name] || {};
  const w = 150, h = 40 + 18 * Math.max(1, ...names.map((n) => (at.get(n) || []).length));
  const narrow = window.innerWidth < 600;
  const positions = board.shape === "ring" ? (narrow ? loopPlaces(names.length, w, h)
    : ringPlaces(names.length, w, h)) : linePlaces(names.length, w, h, narrow ? 2 : 5);
  const width = Math.max(...positions.map((p) => p.x)) + w + 10;
  const height = Math.max(...positions.map((p) => p.y)) + h + 10;
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: `nodes ${board.shape}`,
    role: "img", "aria-label": name });
  if (board.shape === "ring" || board.shape === "line") {
    const path = positions.map((p, i) => `${i ? "L" : "M"}${p.x + w / 2},${p.y + h / 2}`);
    root.append(svg("path", { d: path.join(" ") + (board.shape === "ring" ? " Z" : ""),
      class: "track-line" }));
  }
  names.forEach((node, i) => {
    const p = positions[i];
    const g = svg("g", { class: "node", "data-node": node, transform: `translate(${p.x},${p.y})` });
    g.append(svg("rect", { width: w, height: h, rx: 10, class: "node-box" }));
    g.append(label("text", { x: 8, y: 18, class: "node-name" }, node, 16));
    const extra = Object.entries(states).map(([k, vals]) => `${k} ${show(vals[node])}`);
    if (extra.length) g.append(svg("text", { x: w - 6, y: 18, class: "node-state",
      "text-anchor": "end" }, extra.join(" ")));
    (at.get(node) || []).forEach((m, k) => {
      const y = 36 + 18 * k;
      g.append(m.flag ? svg("rect", { x: 8, y: y - 10, width: 12, height: 12, fill: m.colour })
        : svg("circle", { cx: 14, cy: y - 4, r: 6, fill: m.colour }));
      const text = label("text", { x: 26, y, class: m.flag ? "mark flag" : "mark" }, m.label, 16);
      text.append(svg("title", {}, m.title));
      g.append(text);
    });
    markTarget(g, node, w, h);
    root.append(g);
  });
  return root;
}

function ringPlaces(n, w, h) {
  // round an ellipse wide and tall enough that neighbouring boxes do not overlap
  const rx = Math.max(220, (n * (w + 16)) / (2 * Math.PI) * 1.25);
  const ry = Math.max(160, (n * (h + 16)) / (2 * Math.PI) * 1.25);
  return Array.from({ length: n }, (_, i) => {
    const a = -Math.PI / 2 + (2 * Math.PI * i) / n;
    return { x: rx + rx * Math.cos(a) + 5, y: ry + ry * Math.sin(a) + 5 };
  });
}

// a ring on a phone: down the right column, then up the left one
function loopPlaces(n, w, h) {
  const down = Math.ceil(n / 2);
  return Array.from({ length: n }, (_, i) => (i < down
    ? { x: 5 + w + 16, y: 5 + i * (h + 12) }
    : { x: 5, y: 5 + (n - 1 - i) * (h + 12) + (n % 2 ? (h + 12) / 2 : 0) }));
}

function linePlaces(n, w, h, most) {
  const per = Math.min(n, most);
  return Array.from({ length: n }, (_, i) => {
    const row = Math.floor(i / per);
    const col = row % 2 ? per - 1 - (i % per) : i % per;
    return { x: 5 + col * (w + 20), y: 5 + row * (h + 24) };
  });
}

// a grid of tiles: the laid part and a margin of one cell, north up; each tile by its
// open sides as it lies (its rotation is in `open`), a face-down one as "?"
function tileMap(msg, name, board, tiles) {
  const cells = Object.keys(tiles).map((c) => c.split(",").map(Number));
  if (!cells.length) return el("p", { class: "empty", text: "(no tiles yet)" });
  let [x0, x1] = [Math.min(...cells.map((c) => c[0])) - 1, Math.max(...cells.map((c) => c[0])) + 1];
  let [y0, y1] = [Math.min(...cells.map((c) => c[1])) - 1, Math.max(...cells.map((c) => c[1])) + 1];
  if (board.bounded && board.width) {
    x0 = Math.max(x0, board.x0); x1 = Math.min(x1, board.x0 + board.width - 1);
    y0 = Math.max(y0, board.y0); y1 = Math.min(y1, board.y0 + board.height - 1);
  }
  const S = 48, M = 22;
  const root = svg("svg", { viewBox: `0 0 ${(x1 - x0 + 1) * S + M} ${(y1 - y0 + 1) * S + M}`,
    class: "tiles", role: "img", "aria-label": name,
    style: `min-width: ${(x1 - x0 + 1) * MIN_CELL}px` });
  for (let x = x0; x <= x1; x++) {
    root.append(svg("text", { x: M + (x - x0) * S + S / 2, y: 14, class: "axis",
      "text-anchor": "middle" }, String(x)));
  }
  for (let y = y1; y >= y0; y--) {
    const top = M + (y1 - y) * S;
    root.append(svg("text", { x: M - 4, y: top + S / 2 + 4, class: "axis", "text-anchor": "end" },
      String(y)));
    for (let x = x0; x <= x1; x++) {
      const cell = `${x},${y}`;
      const g = svg("g", { transform: `translate(${M + (x - x0) * S},${top})`, "data-cell": cell });
      g.append(...tileGlyph(tiles[cell], S));
      markTarget(g, cell, S, S);
      root.append(g);
    }
  }
  return root;
}

function tileGlyph(tile, S) {
  if (!tile) return [svg("rect", { x: 1, y: 1, width: S - 2, height: S - 2, class: "cell-free" })];
  const out = [svg("title", {}, tile.tile === "?" ? "face down" : tile.tile)];
  if (tile.tile === "?") {
    out.push(svg("rect", { x: 1, y: 1, width: S - 2, height: S - 2, rx: 4, class: "tile-down" }));
    out.push(svg("text", { x: S / 2, y: S / 2 + 6, "text-anchor": "middle", class: "tile-q" }, "?"));
    return out;
  }
  out.push(svg("rect", { x: 1, y: 1, width: S - 2, height: S - 2, rx: 4,
    class: tile.secret ? "tile known" : "tile" }));
  out.push(...paths(tile.open || [false, false, false, false], tile.joined !== false, S));
  if (tile.secret) {  // face down, yet this viewer may see it: a dashed frame
    out.push(svg("rect", { x: 3, y: 3, width: S - 6, height: S - 6, rx: 3, class: "seen-down" }));
    out.push(svg("text", { x: S / 2, y: S - 6, "text-anchor": "middle", class: "tile-name" },
      tile.tile.slice(0, 8)));
  }
  return out;
}

// the open sides of a tile as tunnels from its middle; a tile whose sides do not join
// has them stop short of the middle (a dead end)
function paths(open, joined, S) {
  const c = S / 2, out = [];
  const ends = [[c, 0], [S, c], [c, S], [0, c]];
  const stop = joined ? 0 : S * 0.18;
  open.forEach((isOpen, d) => {
    if (!isOpen) return;
    const [ex, ey] = ends[d];
    const dx = Math.sign(ex - c), dy = Math.sign(ey - c);
    out.push(svg("line", { x1: c + dx * stop, y1: c + dy * stop, x2: ex, y2: ey, class: "tunnel" }));
  });
  if (!open.some(Boolean)) return out;
  if (joined) out.push(svg("circle", { cx: c, cy: c, r: S * 0.13, class: "tunnel-hub" }));
  else out.push(svg("rect", { x: c - 5, y: c - 5, width: 10, height: 10, class: "dead-end" }));
  return out;
}

// a grid's visible state: each cell coloured by its first attribute, labelled by the
// others, its sides drawn where a boolean edge attribute holds, who stands there
function stateMap(msg, name, board, stateOf) {
  const attrs = msg.layout.board_attrs;
  const map = {
    attrs, stateOf, names: nodeNames(msg), at: occupants(msg, name, board), S: 54, M: 22,
    cellAttrs: Object.keys(stateOf).filter((a) => !attrs[a].edge),
    edgeAttrs: Object.keys(stateOf).filter((a) => attrs[a].edge),
  };
  map.blanks = map.cellAttrs.map((a) => blankOf(Object.values(stateOf[a])));
  map.colours = cellColours(map);
  const { x0, y0, width, height } = board.width ? board
    : boundsOf([...Object.keys(stateOf[map.cellAttrs[0]] || {}), ...map.at.keys()]);
  const { S, M } = map;
  const root = svg("svg", { viewBox: `0 0 ${width * S + 2 * M} ${height * S + 2 * M}`,
    class: "state", role: "img", "aria-label": name, style: `min-width: ${width * MIN_CELL}px` });
  for (let y = y0 + height - 1; y >= y0; y--) {
    const top = M + (y0 + height - 1 - y) * S;
    root.append(svg("text", { x: M - 4, y: top + S / 2 + 4, class: "axis", "text-anchor": "end" },
      String(y)));
    for (let x = x0; x < x0 + width; x++) {
      const g = stateCell(map, `${x},${y}`);
      g.setAttribute("transform", `translate(${M + (x - x0) * S},${top})`);
      root.append(g);
    }
  }
  for (let x = x0; x < x0 + width; x++) {
    root.append(svg("text", { x: M + (x - x0) * S + S / 2, y: M + height * S + 15, class: "axis",
      "text-anchor": "middle" }, String(x)));
  }
  map.edgeAttrs.forEach((a, i) => drawSides(root, stateOf[a], i, { x0, y0, height, S, M }));
  return [root, stateLegend(map.cellAttrs, map.colours, map.edgeAttrs, map.at),
    ...(map.cellAttrs.length > 1 ? [cellShows(map)] : [])];
}

// the usual value of the first attribute in a neutral colour, the others each its own,
// in the order of their texts (so the same on every page and in every state)
function cellColours({ cellAttrs, stateOf, blanks }) {
  const colours = new Map();
  if (!cellAttrs.length) return colours;
  const values = [...new Set(Object.values(stateOf[cellAttrs[0]]).map(show))].sort();
  colours.set(show(blanks[0]), BLANK_FILL);
  values.forEach((value, i) => colours.has(value) || colours.set(value, FILLS[i % FILLS.length]));
  return colours;
}

// one cell of a state map: its colour, up to two labels, who stands there, its tooltip
function stateCell(map, cell) {
  const { attrs, stateOf, cellAttrs, names, S } = map;
  const g = svg("g", { "data-cell": cell });
  const first = cellAttrs.length ? stateOf[cellAttrs[0]][cell] : undefined;
  const fill = cellAttrs.length ? colourOf(map.colours, show(first), FILLS) : "#fafafa";
  g.append(svg("rect", { width: S, height: S, fill, class: "cell" }));
  const tip = cellAttrs.map((a) => `${a} ${shown(attrs[a], stateOf[a][cell], names)}`);
  g.append(svg("title", {}, [cell, ...tip].join("\n")));
  const labels = cellAttrs.map((a, i) => cellLabel(map, a, i, cell)).filter(Boolean);
  labels.slice(0, 2).forEach((t, k) => g.append(svg("text", { x: 4, y: 14 + 13 * k,
    class: "cell-label" }, t.length > 9 ? t.slice(0, 8) + "…" : t)));
  markTarget(g, cell, S, S);
  (map.at.get(cell) || []).forEach((m, k) => {
    g.append(svg("circle", { cx: S - 12 - 14 * k, cy: S - 12, r: 8, fill: m.colour, class: "who" }));
    g.append(svg("text", { x: S - 12 - 14 * k, y: S - 8, class: "who-label",
      "text-anchor": "middle" }, m.label.slice(0, 2)));
  });
  return g;
}

function cellLabel({ attrs, stateOf, blanks, names }, a, i, cell) {
  const value = stateOf[a][cell];
  if (i > 0 && show(value) === show(blanks[i])) return "";
  // the first is shown by colour too: its blank goes unlabelled only when it is empty
  // or one of many values (the common ground of a map)
  if (i === 0 && show(value) === show(blanks[0])
    && (EMPTY.has(show(value)) || distinct(stateOf[a]) > 3)) return "";
  const text = shown(attrs[a], value, names);
  // a bare number says little: the attribute's name with it ("treas 2")
  return i > 0 && typeof value === "number" && !attrs[a].display ? `${a.slice(0, 5)} ${text}` : text;
}

function cellShows({ cellAttrs, blanks }) {
  const usual = cellAttrs.map((a, i) => `${a} ${show(blanks[i]) === "" ? '""' : show(blanks[i])}`);
  return el("p", { class: "cell-shows",
    text: `a cell shows: ${cellAttrs.join(" / ")} (where not the usual: ${usual.join(", ")})` });
}

const EMPTY = new Set(["none", "", "no", "0", "-1"]);

function distinct(values) {
  return new Set(Object.values(values).map(show)).size;
}

function boundsOf(cells) {
  const xy = cells.map((c) => c.split(",").map(Number)).filter((p) => p.length === 2);
  if (!xy.length) return { x0: 0, y0: 0, width: 1, height: 1 };
  const xs = xy.map((p) => p[0]), ys = xy.map((p) => p[1]);
  return { x0: Math.min(...xs), y0: Math.min(...ys), width: Math.max(...xs) - Math.min(...xs) + 1,
    height: Math.max(...ys) - Math.min(...ys) + 1 };
}

// the value a map leaves blank: an empty one where there is one (none, "", 0, ...),
// else the most common, so that the map shows what differs
function blankOf(values) {
  if (values.some((v) => v === null)) return null;
  const empty = values.find((v) => EMPTY.has(show(v)));
  if (empty !== undefined) return empty;
  const counts = new Map();
  for (const v of values) counts.set(show(v), (counts.get(show(v)) || 0) + 1);
  let best = null, most = -1;
  for (const v of values) if (counts.get(show(v)) > most) { best = v; most = counts.get(show(v)); }
  return best;
}

function nodeNames(msg) {
  const out = {};
  for (const [name, b] of Object.entries(msg.layout.boards)) out[name] = b;
  return out;
}

// a board attribute's value as its `display` says (docs/language.md): directions as
// arrows, node numbers as the node's name
function shown(attr, value, boards) {
  if (attr.display === "direction" && typeof value === "number" && value >= 0 && value < 4) {
    return ["↑", "→", "↓", "←"][value];
  }
  const m = /^node\((.*)\)$/.exec(attr.display || "");
  if (m && typeof value === "number" && value >= 0 && boards[m[1]]) {
    const b = boards[m[1]];
    if (b.names.length) return b.names[value] ?? show(value);
    if (b.width) return `${b.x0 + (value % b.width)},${b.y0 + Math.floor(value / b.width)}`;
  }
  return show(value);
}

const SIDE_STYLES = ["wall", "side-2", "side-3", "side-4"];

function drawSides(root, values, i, { x0, y0, height, S, M }) {
  for (const [side, value] of Object.entries(values)) {
    if (value !== true) continue;
    const [cell, dir] = side.split(" ");
    const [x, y] = cell.split(",").map(Number);
    const left = M + (x - x0) * S, top = M + (y0 + height - 1 - y) * S;
    const seg = { north: [0, 0, S, 0], south: [0, S, S, S], west: [0, 0, 0, S], east: [S, 0, S, S] }[dir];
    if (!seg) continue;
    root.append(svg("line", { x1: left + seg[0], y1: top + seg[1], x2: left + seg[2],
      y2: top + seg[3], class: `cell-side ${SIDE_STYLES[Math.min(i, 3)]}` }));
  }
}

function stateLegend(cellAttrs, colours, edgeAttrs, at) {
  const legend = el("ul", { class: "legend" });
  if (cellAttrs.length) {
    for (const [value, fill] of colours) {
      legend.append(el("li", {}, el("span", { class: "swatch", style: `background:${fill}` }),
        el("span", { text: `${cellAttrs[0]} ${value === "" ? '""' : value}` })));
    }
  }
  edgeAttrs.forEach((a, i) => legend.append(el("li", {},
    el("span", { class: `swatch line ${SIDE_STYLES[Math.min(i, 3)]}` }), el("span", { text: a }))));
  const seen = new Set();
  for (const marks of at.values()) {
    for (const m of marks) {
      if (seen.has(m.title)) continue;
      seen.add(m.title);
      legend.append(el("li", {}, el("span", { class: "swatch dot", style: `background:${m.colour}` }),
        el("span", { text: m.title })));
    }
  }
  return legend;
}

// ---------------------------------------------------------------- tracks, pieces, players

// numbers of pieces (a score, a position) as markers on a track from 0 to the largest
function tracks(msg) {
  const out = [];
  const v = msg.view;
  for (const [kind, rows] of Object.entries(v.pieces || {})) {
    const skip = hidden(msg.layout, kind);
    const numeric = Object.keys(rows[0] || {}).filter((a) => !skip.has(a)
      && rows.every((r) => typeof r[a] === "number" && typeof r[a] !== "boolean"));
    for (const attr of numeric) {
      out.push(track(`${kind} ${attr}`, rows, attr));
      (state.tracked[kind] ||= new Set()).add(attr);
    }
  }
  return out;
}

// one lane a piece: its name, then a marker at its number on a scale shared by all
function track(title, rows, attr) {
  const top = Math.max(10, ...rows.map((r) => r[attr]));
  const low = Math.min(0, ...rows.map((r) => r[attr]));
  const narrow = window.innerWidth < 600;
  const W = narrow ? 360 : 600, left = narrow ? 78 : 110, pad = 34;
  const unit = (W - left - pad) / (top - low || 1);
  const H = 26 + 20 * rows.length;
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "track", role: "img",
    "aria-label": title });
  const step = Math.max(1, Math.ceil((top - low) / (narrow ? 6 : 10)));
  for (let t = low; t <= top; t += step) {
    const x = left + (t - low) * unit;
    root.append(svg("line", { x1: x, y1: 18, x2: x, y2: H, class: "tick" }));
    root.append(svg("text", { x, y: 12, "text-anchor": "middle", class: "axis" }, String(t)));
  }
  rows.forEach((r, i) => {
    const y = 30 + 20 * i, x = left + (r[attr] - low) * unit, colour = PALETTE[i % 12];
    root.append(svg("line", { x1: left, y1: y, x2: W - pad, y2: y, class: "lane" }));
    root.append(label("text", { x: left - 8, y: y + 4, "text-anchor": "end", class: "mark" },
      show(r.name ?? i + 1), narrow ? 9 : 14));
    root.append(svg("line", { x1: left, y1: y, x2: x, y2: y, stroke: colour, "stroke-width": 4 }));
    root.append(svg("circle", { cx: x, cy: y, r: 7, fill: colour }));
    root.append(svg("text", { x: x + 10, y: y + 4, class: "mark value" }, show(r[attr])));
  });
  return el("section", { class: "panel track-panel" }, el("h2", { text: title }), root);
}

function placedAttrs(layout) {
  const out = {};
  for (const b of Object.values(layout.boards)) {
    for (const { owner, attr } of b.placed || []) (out[owner] ||= new Set()).add(attr);
  }
  return out;
}

function renderPieces(msg) {
  const v = msg.view;
  const placed = placedAttrs(msg.layout);
  const out = [];
  for (const [kind, rows] of Object.entries(v.pieces || {})) {
    if (!rows.length) continue;
    const skip = new Set([...(placed[kind] || []), ...(state.tracked[kind] || []),
      ...hidden(msg.layout, kind), "name"]);
    const attrs = [...new Set(rows.flatMap((r) => Object.keys(r)))].filter((a) => !skip.has(a));
    if (!attrs.length) continue;
    const list = el("ul", { class: "pieces" });
    rows.forEach((r, i) => list.append(el("li", {},
      el("span", { class: "swatch dot", style: `background:${PALETTE[i % 12]}` }),
      el("b", { text: show(r.name ?? `${kind} ${i + 1}`) }),
      el("span", { text: " " + attrs.filter((a) => a in r).map((a) => `${a} ${show(r[a])}`).join(", ") }))));
    out.push(el("section", { class: "panel" }, el("h2", { text: `${kind}s` }), list));
  }
  const skipGlobals = new Set([...hidden(msg.layout, "global"), ...(placed.global || [])]);
  const globals = Object.entries(v.globals || {}).filter(([k]) => !skipGlobals.has(k));
  if (globals.length) {
    const list = el("ul", { class: "globals" });
    for (const [k, val] of globals) list.append(el("li", {}, el("b", { text: k }), " ", show(val)));
    out.push(el("section", { class: "panel" }, el("h2", { text: "game" }), list));
  }
  return out;
}

function renderPlayers(msg) {
  const v = msg.view;
  const who = viewerName(msg);
  const skip = hidden(msg.layout, "player");
  const onBoard = Boolean(placedAttrs(msg.layout).player);
  const list = el("ul", { class: "players" });
  v.players.forEach((p, seat) => {
    const extras = Object.entries(p).filter(([k]) => k !== "name" && k !== "seat" && !skip.has(k))
      .map(([k, val]) => `${k}: ${show(val)}`).join(", ");
    const classes = ["player"];
    if (!v.results && (p.name === v.to_act || (!v.to_act && p.name === v.current))) {
      classes.push("to-act");
    }
    if (p.name === who) classes.push("you");
    const result = v.results ? v.results[p.name] : null;
    list.append(el("li", { class: classes.join(" "), "data-seat": String(seat) },
      onBoard ? el("span", { class: "swatch dot", style: `background:${PALETTE[seat % 12]}` }) : null,
      el("b", { text: p.name }),
      p.name === who ? el("span", { class: "you-mark", text: " (you)" }) : null,
      result ? el("span", { class: `badge ${result}`, text: result }) : null,
      extras ? el("span", { class: "extras", text: " " + extras }) : null));
  });
  return el("section", { class: "panel", id: "players" }, el("h2", { text: "players" }), list);
}

function renderZones(msg) {
  const v = msg.view;
  const who = viewerName(msg);
  const list = el("div", { class: "zones" });
  const mine = [], others = [];
  for (const [zone, content] of Object.entries(v.zones || {})) {
    const own = who && zone.endsWith(`[${who}]`);
    let body;
    if (!Array.isArray(content)) {
      if (!content.size) continue;
      const known = content.known && content.known.length
        ? ` (you know of ${content.known.map(show).join(", ")})` : "";
      body = el("span", { class: "hidden-zone", text: `${content.size} hidden${known}` });
    } else {
      if (!content.length) continue;
      const faces = (v.zone_tiles || {})[zone];
      body = el("span", { class: "cards" });
      content.forEach((card, i) => body.append(cardChip(card, faces ? faces[i] : null)));
    }
    const row = el("div", { class: own ? "zone own" : "zone", "data-zone": zone },
      el("span", { class: "zone-name", text: zone }), body);
    (own ? mine : others).push(row);
  }
  list.append(...mine, ...others);
  if (!mine.length && !others.length) return null;
  return el("section", { class: "panel", id: "zones" }, el("h2", { text: "cards and zones" }), list);
}

function cardChip(card, face) {
  const chip = el("span", { class: "card" });
  if (face && face.open.some(Boolean)) {
    const s = svg("svg", { viewBox: "0 0 30 30", class: "mini-tile" });
    s.append(svg("rect", { x: 0.5, y: 0.5, width: 29, height: 29, rx: 3, class: "tile" }));
    s.append(...paths(face.open, face.joined, 30));
    chip.append(s);
  }
  chip.append(el("span", { text: show(card) }));
  return chip;
}

// ---------------------------------------------------------------- the log

function renderLog(msg) {
  const v = msg.view;
  const lines = msg.history || v.log;
  // the lines said to this viewer alone or to a few: marked, with their audience in
  // the master's view
  const privateCount = new Map();
  (v.private || []).forEach((line, i) => {
    const to = v.private_to ? v.private_to[i].join(", ") : null;
    if (!privateCount.has(line)) privateCount.set(line, []);
    privateCount.get(line).push(to);
  });
  const items = [];
  for (let i = lines.length - 1; i >= 0; i--) {  // newest first; marks from the newest
    const line = lines[i];
    const li = el("li", {}, el("span", { class: "line", text: line }));
    if (msg.audience) {  // the master's: whom each line was said to (null: everyone)
      const to = msg.audience[i];
      if (to !== null) {
        li.classList.add("secret");
        li.prepend(el("span", { class: "secret-mark", text: to === "" ? "nobody else knows"
          : `only ${to} know${to.includes(",") ? "" : "s"}` }));
      }
      items.push(li);
      continue;
    }
    const audiences = privateCount.get(line);
    if (audiences && audiences.length) {
      const to = audiences.pop();
      li.classList.add("secret");
      li.prepend(el("span", { class: "secret-mark",
        text: to === null ? "only you know" : `only ${to} know${to.includes(",") ? "" : "s"}` }));
    }
    items.push(li);
  }
  return el("section", { class: "panel", id: "log" }, el("h2", { text: "what happened" }),
    el("ol", { class: "log", reversed: "" }, ...items));
}

// ---------------------------------------------------------------- the whole page

function render(msg) {
  state.msg = msg;
  if (msg.seq !== undefined) state.seq = msg.seq;
  document.body.dataset.seq = String(state.seq);  // the state shown (read by the tests)
  const app = document.getElementById("app");
  state.tracked = {};
  state.targets = targetsOf(msg);
  const boards = renderBoards(msg);
  const main = el("div", { class: "main" }, ...boards, ...tracks(msg), ...renderPieces(msg));
  for (const b of boards) b.classList.add("board-panel");
  const side = el("div", { class: "side" }, renderDecision(msg), renderPlayers(msg),
    renderZones(msg), renderLog(msg));
  app.replaceChildren(renderHeader(msg), el("div", { class: "table" }, side, main));
  document.title = `${msg.view.title} — rulelang`;
}

// a refusal is shown until the game moves past the seq it came with
function refuse(reason, seq) {
  state.refusal = reason;
  state.refusalSeq = seq ?? state.seq;
  if (state.msg) render(state.msg);
}

function fatal(title, reason) {
  const app = document.getElementById("app");
  app.replaceChildren(el("section", { class: "panel fatal", id: "refused" },
    el("h1", { text: title }), el("p", { text: reason })));
  document.title = title;
}

// ---------------------------------------------------------------- the connection

// the page is at /t/TOKEN, its socket at /ws/TOKEN (serve-protocol: same origin)
function socketUrl() {
  const token = location.pathname.replace(/^.*\/t\//, "");
  return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/ws/${token}`;
}

function connect() {
  const socket = new WebSocket(socketUrl());
  state.socket = socket;
  socket.addEventListener("open", () => { state.retry = 0; setConnected(true); });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", (event) => {
    setConnected(false);
    if (state.closedForGood) return;
    if (event.code === 4404 || event.code === 4403 || event.code === 1008) {
      fatal("This link does not open a seat at any table", event.reason || "wrong or old link");
      return;
    }
    state.retry = Math.min(state.retry + 1, 6);
    setTimeout(connect, 250 * 2 ** state.retry);  // back off: 0.5 s .. 16 s
  });
}

function receive(msg) {
  if (msg.type === "state") {
    // a refusal stays until the game moves on (a stale move's refusal comes with the
    // fresh state, which must not wipe it)
    if (msg.seq !== state.refusalSeq) state.refusal = null;
    render(msg);
  }
  else if (msg.type === "refused") refuse(msg.reason, msg.seq);
  else if (msg.type === "error") {
    // before any state: the link is wrong; after: the game itself stopped (a rule's
    // runtime error), and the table takes no more moves
    if (!state.msg) {
      state.closedForGood = true;
      fatal("This link does not open a seat at any table", msg.reason);
    } else refuse(`The table stopped: ${msg.reason}`);
  }
}

function setConnected(up) {
  document.body.classList.toggle("offline", !up);
}

function sendMove(option) {
  if (!state.socket || state.socket.readyState !== WebSocket.OPEN) {
    refuse("not connected: trying again…");
    return;
  }
  for (const b of document.querySelectorAll("#decision button")) b.disabled = true;
  const move = option.i !== undefined ? { option: option.i } : { text: option.text };
  state.socket.send(JSON.stringify({ type: "move", seq: state.seq, ...move }));
}

// a board is drawn for the screen's width: drawn again when it changes much
let lastWidth = window.innerWidth;
window.addEventListener("resize", () => {
  if ((lastWidth < 600) !== (window.innerWidth < 600) && state.msg) render(state.msg);
  lastWidth = window.innerWidth;
});

window.rulelangTable = { render, refuse, fatal, connect };
if (location.protocol.startsWith("http") && !document.body.dataset.noConnect) connect();

// The score chart: one line per player (or character) over rounds or steps, in plain SVG.

import { s } from "./dom.js";
import { t } from "./i18n.js";

const H = 240;
const PAD = { left: 44, right: 12, top: 12, bottom: 28 };
const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"];
const DASHES = ["", "6 3", "2 3", "8 3 2 3", "1 2", "10 4"];

/** The point a step falls on: the last point at or before it. */
export function pointAt(points, step) {
  let found = points[0] || null;
  for (const point of points) if (point.step <= step) found = point;
  return found;
}

/** Words for the values at a step: "ann 30, bob -10 after round 3". */
export function describe(spec, step, seats = []) {
  const point = pointAt(spec.points, step);
  if (!point) return t("{title}: nothing recorded yet", { title: spec.title });
  const values = seriesNames(spec, seats)
    .filter((name) => name in point.values)
    .map((name) => `${name} ${point.values[name]}`)
    .join(t(", "));
  return t("{title}: {values} after {axis} {x}", { title: spec.title, values, axis: spec.axis, x: point.x });
}

function scale(points, W) {
  const xs = points.map((p) => p.x);
  const ys = points.flatMap((p) => Object.values(p.values));
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  let [y0, y1] = [Math.min(0, ...ys), Math.max(1, ...ys)];
  if (y0 === y1) y1 = y0 + 1;
  const x = (v) => PAD.left + ((v - x0) / (x1 - x0 || 1)) * (W - PAD.left - PAD.right);
  const y = (v) => H - PAD.bottom - ((v - y0) / (y1 - y0)) * (H - PAD.top - PAD.bottom);
  return { x, y, x0, x1, y0, y1, W };
}

function axes(k, spec) {
  const W = k.W;
  const zero = k.y0 < 0 && k.y1 > 0 ? s("line", { x1: PAD.left, x2: W - PAD.right, y1: k.y(0), y2: k.y(0), class: "zero" }) : null;
  // The zero's label only where it does not overlap the top or bottom label.
  const roomy = zero && Math.min(k.y(0) - k.y(k.y1), k.y(k.y0) - k.y(0)) > 14;
  return [
    s("line", { x1: PAD.left, x2: PAD.left, y1: PAD.top, y2: H - PAD.bottom, class: "axis" }),
    s("line", { x1: PAD.left, x2: W - PAD.right, y1: H - PAD.bottom, y2: H - PAD.bottom, class: "axis" }),
    zero,
    roomy ? s("text", { x: PAD.left - 6, y: k.y(0) + 4, "text-anchor": "end" }, "0") : null,
    s("text", { x: PAD.left - 6, y: k.y(k.y1) + 4, "text-anchor": "end" }, String(k.y1)),
    s("text", { x: PAD.left - 6, y: k.y(k.y0) + 4, "text-anchor": "end" }, String(k.y0)),
    s("text", { x: PAD.left, y: H - 8, "text-anchor": "start" }, `${spec.axis} ${k.x0}`),
    s("text", { x: W - PAD.right, y: H - 8, "text-anchor": "end" }, `${spec.axis} ${k.x1}`),
  ];
}

// Over steps a value holds until the step that changes it, so the line goes in steps;
// over rounds each point is a round's end, joined straight.
function path(points, name, k, stepped) {
  const at = (p, value) => `${k.x(p.x).toFixed(1)},${k.y(value).toFixed(1)}`;
  return points.flatMap((p, i) => (stepped && i > 0 ? [at(p, points[i - 1].values[name]), at(p, p.values[name])] : [at(p, p.values[name])]));
}

/** The series' names, in seat order where the players are named (the API's maps are sorted). */
export function seriesNames(spec, seats = []) {
  const last = spec.points[spec.points.length - 1];
  const names = last ? Object.keys(last.values) : [];
  const seat = (name) => {
    const at = seats.findIndex((p) => name === p || name.startsWith(`${p} (`));
    return at < 0 ? seats.length : at;
  };
  return names.sort((a, b) => seat(a) - seat(b));
}

/**
 * The chart's SVG for a spec {title, axis, points: [{x, step, values}]} with the step marked,
 * `width` user units wide: the page passes its own width, so the labels keep their size on a phone.
 */
export function drawChart(spec, step, seats = [], width = 640) {
  const W = Math.max(280, Math.round(width));
  const label = describe(spec, step, seats);
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label, class: "chart" }, s("title", {}, label));
  const points = spec.points;
  if (!points.length) return svg;
  const names = seriesNames(spec, seats);
  const k = scale(points, W);
  svg.append(...axes(k, spec).filter(Boolean));
  const here = pointAt(points, step);
  names.forEach((name, i) => {
    const line = path(points.filter((p) => name in p.values), name, k, spec.axis === "step");
    const colour = COLOURS[i % COLOURS.length];
    svg.append(
      s("polyline", { points: line.join(" "), fill: "none", stroke: colour, "stroke-width": 2, "stroke-dasharray": DASHES[i % DASHES.length] || null }),
    );
    if (here && name in here.values) {
      svg.append(s("circle", { cx: k.x(here.x), cy: k.y(here.values[name]), r: 4, fill: colour }));
    }
  });
  if (here) svg.append(s("line", { x1: k.x(here.x), x2: k.x(here.x), y1: PAD.top, y2: H - PAD.bottom, class: "marker" }));
  return svg;
}

/** The legend: each line's colour and name, with its value at the step. */
export function legend(spec, step, seats = []) {
  const here = pointAt(spec.points, step);
  const names = seriesNames(spec, seats);
  return names.map((name, i) => ({ name, colour: COLOURS[i % COLOURS.length], value: here ? here.values[name] : undefined }));
}

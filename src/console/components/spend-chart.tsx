// Daily spend as an inline SVG bar chart (no chart library): one bar per UTC day, the tallest
// bar's amount on the axis; every bar names its day and amount (title, and a list for screen readers).
import { useId } from "preact/hooks";
import { money } from "../lib/format";
import type { DaySpend } from "../lib/spend";

const WIDTH = 560;
const HEIGHT = 160;
const AXIS = 18;

const shortDay = (day: string) => new Date(`${day}T00:00:00Z`).toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

export function SpendChart({ days }: { days: DaySpend[] }) {
  const id = useId();
  const max = Math.max(1, ...days.map((d) => d.cents));
  const total = days.reduce((sum, d) => sum + d.cents, 0);
  const slot = WIDTH / days.length;
  const bar = Math.max(2, slot * 0.7);
  const plot = HEIGHT - AXIS;
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${id}-title`}>
        <title id={`${id}-title`}>
          Spend per day over the last {days.length} days: {money(total)} in total, at most {money(max === 1 && total === 0 ? 0 : max)} a day
        </title>
        <line x1="0" y1={plot} x2={WIDTH} y2={plot} class="axis" />
        {days.map((d, i) => {
          const h = d.cents === 0 ? 0 : Math.max(2, (d.cents / max) * (plot - 4));
          return (
            <rect key={d.day} x={i * slot + (slot - bar) / 2} y={plot - h} width={bar} height={h} class="bar">
              <title>
                {shortDay(d.day)}: {money(d.cents)}
              </title>
            </rect>
          );
        })}
        <text x="0" y={HEIGHT - 4} class="tick">
          {shortDay(days[0].day)}
        </text>
        <text x={WIDTH} y={HEIGHT - 4} class="tick" text-anchor="end">
          {shortDay(days[days.length - 1].day)}
        </text>
      </svg>
      <figcaption>
        {money(total)} over {days.length} days; the highest day {money(total === 0 ? 0 : max)}.
      </figcaption>
      <ul class="visually-hidden">
        {days.map((d) => (
          <li key={d.day}>
            {shortDay(d.day)}: {money(d.cents)}
          </li>
        ))}
      </ul>
    </figure>
  );
}

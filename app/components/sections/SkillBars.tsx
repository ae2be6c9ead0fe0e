export function SkillBars({
  skills,
  light = false,
}: {
  skills: { label: string; percent: number }[];
  light?: boolean;
}) {
  return (
    <ul className="space-y-6">
      {skills.map((s) => {
        const pct = Math.max(0, Math.min(100, Math.round(s.percent)));
        return (
          <li key={s.label}>
            <div className={`flex justify-between text-sm font-semibold ${light ? "text-white" : "text-ink"}`}>
              <span>{s.label}</span>
              <span>{pct}%</span>
            </div>
            <div
              role="progressbar"
              aria-label={s.label}
              aria-valuenow={pct}
              aria-valuemin={0}
              aria-valuemax={100}
              className={`mt-2 h-2 overflow-hidden rounded-full ${light ? "bg-white/15" : "bg-linen"}`}
            >
              <div className="h-full rounded-full bg-clay" style={{ width: `${pct}%` }} />
            </div>
          </li>
        );
      })}
    </ul>
  );
}

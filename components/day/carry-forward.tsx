/** The previous update's open items, each to carry into today's update or to mark resolved. */
export interface CarryOffer {
  /** The previous update's day, as the page says it. */
  dayLabel: string;
  blockers: { n: number; text: string }[];
  slipping: { n: number; text: string }[];
}

function Choice({
  prefix,
  n,
  text,
  kind,
  resolved,
}: {
  prefix: string;
  n: number;
  text: string;
  kind: string;
  resolved: boolean;
}) {
  const id = `${prefix}-${n}`;
  return (
    <fieldset className="carry-item">
      <legend>
        <span className="muted">{kind}:</span> {text}
      </legend>
      <div className="carry-choices">
        <div className="checkbox">
          <input id={`${id}-open`} type="radio" name={id} value="open" />
          <label htmlFor={`${id}-open`}>Still open</label>
        </div>
        <div className="checkbox">
          <input id={`${id}-resolved`} type="radio" name={id} value="resolved" defaultChecked={resolved} />
          <label htmlFor={`${id}-resolved`}>Resolved</label>
        </div>
      </div>
    </fieldset>
  );
}

/**
 * "Still open" copies an item into today's update as it was written; "Resolved" leaves it behind. Once today's
 * update is saved, the items it did not take are shown as resolved, to be reopened if need be.
 */
export function CarryForward({ offer, resolvedByDefault }: { offer: CarryOffer; resolvedByDefault: boolean }) {
  return (
    <fieldset className="field day-section carry-forward">
      <legend>Still open from {offer.dayLabel}?</legend>
      <p className="hint">
        Your last update&rsquo;s blockers and slipping items. Still open ones are copied into today&rsquo;s when you
        save.
      </p>
      {offer.blockers.map(({ n, text }) => (
        <Choice key={`b${n}`} prefix="carryBlocker" n={n} text={text} kind="Blocker" resolved={resolvedByDefault} />
      ))}
      {offer.slipping.map(({ n, text }) => (
        <Choice key={`s${n}`} prefix="carrySlipping" n={n} text={text} kind="Slipping" resolved={resolvedByDefault} />
      ))}
    </fieldset>
  );
}

/** A settings form's primary button, disabled while its action runs so that one click sends one request. */
export function SubmitButton({ pending, label, busy }: { pending: boolean; label: string; busy: string }) {
  return (
    <div>
      <button className="button button--primary" type="submit" disabled={pending}>
        {pending ? busy : label}
      </button>
    </div>
  );
}

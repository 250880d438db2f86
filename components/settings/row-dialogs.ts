"use client";

import { useCallback, useState } from "react";

/**
 * The one open dialog of a settings table (which action, on which row) and the one display of a secret a roll
 * made, held above the rows: a row moves or goes when its thing changes, and neither the open dialog nor the only
 * display of a new secret may vanish with it. Hundreds of rows carry small buttons, not a dialog each.
 */
export function useRowDialogs<Opening, Rolled>() {
  const [opening, open] = useState<Opening | null>(null);
  const [rolled, setRolled] = useState<Rolled | null>(null);
  const close = useCallback(() => open(null), []);
  const showRolled = useCallback((result: Rolled) => {
    open(null);
    setRolled(result);
  }, []);
  return { opening, open, close, rolled, showRolled };
}

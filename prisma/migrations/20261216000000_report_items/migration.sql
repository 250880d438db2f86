-- The items of every report as rows (issue 39), so that a briefing reads one period's blockers, silent people,
-- slipping items, KPIs and shipped work by organization, kind and date, never whole reports. Written with each report
-- when it is stored or replaced (lib/data/report-items.ts), deleted with it (the foreign key).
CREATE TABLE "report_items" (
  "organization_id" UUID NOT NULL,
  "report_id" UUID NOT NULL,
  "kind" TEXT NOT NULL CHECK ("kind" IN ('blocker', 'silent', 'slipping', 'kpi', 'shipped')),
  "position" INTEGER NOT NULL,
  "scope" "report_scope" NOT NULL,
  "scope_target_id" UUID,
  "generated_at" TIMESTAMPTZ(3) NOT NULL,
  -- The person as written, the same folded (case, accents, punctuation), and the member it names, when it does.
  "owner" TEXT,
  "owner_key" TEXT,
  "member_id" UUID,
  -- What the item is about (a blocker, a title, a KPI's name), and the same folded: one blocker across reports.
  "text" TEXT,
  "text_key" TEXT,
  -- since_days, days_silent or days_late as written.
  "days" INTEGER,
  "reason" TEXT,
  "value" JSONB,
  "unit" TEXT,
  "target" JSONB,
  "status" TEXT,
  CONSTRAINT "report_items_pkey" PRIMARY KEY ("report_id", "kind", "position"),
  CONSTRAINT "report_items_report_id_fkey" FOREIGN KEY ("report_id") REFERENCES "reports"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- A briefing reads one kind of one organization over a period.
CREATE INDEX "report_items_organization_id_kind_generated_at_idx" ON "report_items" ("organization_id", "kind", "generated_at");

-- The reports stored before: the extraction of lib/data/report-items.ts (reportItemsInsertSql("true", "true")) as it
-- was when the table was made. Owners are matched to the roster in SQL (case and accents folded with normalize()).
WITH roster AS (
  SELECT m.id, m.organization_id, nullif(btrim(regexp_replace(lower(regexp_replace(normalize(m.name, NFD), '[\u0300-\u036f]', '', 'g')), '[^[:alnum:]]+', ' ', 'g')), '') AS name_key,
         count(*) OVER (PARTITION BY m.organization_id, nullif(btrim(regexp_replace(lower(regexp_replace(normalize(m.name, NFD), '[\u0300-\u036f]', '', 'g')), '[^[:alnum:]]+', ' ', 'g')), '')) AS namesakes
  FROM members m WHERE true
),
e AS (
  SELECT r.organization_id, r.id AS report_id, r.scope, r.scope_target_id, r.generated_at, s.kind,
         (i.position - 1)::int AS position, i.item
  FROM reports r
  CROSS JOIN (VALUES ('blocker', 'blockers'), ('silent', 'silent'), ('slipping', 'slipping'), ('kpi', 'kpi_status'), ('shipped', 'shipped')) AS s(kind, section)
  CROSS JOIN LATERAL jsonb_array_elements(
    CASE WHEN jsonb_typeof(r.content->s.section) = 'array' THEN r.content->s.section ELSE '[]'::jsonb END
  ) WITH ORDINALITY AS i(item, position)
  WHERE (true) AND jsonb_typeof(i.item) = 'object'
),
f AS (
  SELECT e.*,
         CASE e.kind WHEN 'blocker' THEN coalesce(CASE WHEN jsonb_typeof(e.item->'description') IN ('string', 'number') THEN nullif(btrim(e.item->>'description'), '') END, CASE WHEN jsonb_typeof(e.item->'title') IN ('string', 'number') THEN nullif(btrim(e.item->>'title'), '') END, CASE WHEN jsonb_typeof(e.item->'item') IN ('string', 'number') THEN nullif(btrim(e.item->>'item'), '') END, CASE WHEN jsonb_typeof(e.item->'text') IN ('string', 'number') THEN nullif(btrim(e.item->>'text'), '') END) WHEN 'slipping' THEN coalesce(CASE WHEN jsonb_typeof(e.item->'item') IN ('string', 'number') THEN nullif(btrim(e.item->>'item'), '') END, CASE WHEN jsonb_typeof(e.item->'title') IN ('string', 'number') THEN nullif(btrim(e.item->>'title'), '') END, CASE WHEN jsonb_typeof(e.item->'description') IN ('string', 'number') THEN nullif(btrim(e.item->>'description'), '') END, CASE WHEN jsonb_typeof(e.item->'text') IN ('string', 'number') THEN nullif(btrim(e.item->>'text'), '') END) WHEN 'kpi' THEN coalesce(CASE WHEN jsonb_typeof(e.item->'name') IN ('string', 'number') THEN nullif(btrim(e.item->>'name'), '') END, CASE WHEN jsonb_typeof(e.item->'metric') IN ('string', 'number') THEN nullif(btrim(e.item->>'metric'), '') END, CASE WHEN jsonb_typeof(e.item->'kpi') IN ('string', 'number') THEN nullif(btrim(e.item->>'kpi'), '') END, CASE WHEN jsonb_typeof(e.item->'title') IN ('string', 'number') THEN nullif(btrim(e.item->>'title'), '') END) WHEN 'shipped' THEN coalesce(CASE WHEN jsonb_typeof(e.item->'title') IN ('string', 'number') THEN nullif(btrim(e.item->>'title'), '') END, CASE WHEN jsonb_typeof(e.item->'description') IN ('string', 'number') THEN nullif(btrim(e.item->>'description'), '') END, CASE WHEN jsonb_typeof(e.item->'item') IN ('string', 'number') THEN nullif(btrim(e.item->>'item'), '') END, CASE WHEN jsonb_typeof(e.item->'text') IN ('string', 'number') THEN nullif(btrim(e.item->>'text'), '') END) END AS text,
         CASE e.kind WHEN 'blocker' THEN coalesce(CASE WHEN jsonb_typeof(e.item->'owner') IN ('string', 'number') THEN nullif(btrim(e.item->>'owner'), '') END, CASE WHEN jsonb_typeof(e.item->'member') IN ('string', 'number') THEN nullif(btrim(e.item->>'member'), '') END, CASE WHEN jsonb_typeof(e.item->'person') IN ('string', 'number') THEN nullif(btrim(e.item->>'person'), '') END) WHEN 'silent' THEN coalesce(CASE WHEN jsonb_typeof(e.item->'owner') IN ('string', 'number') THEN nullif(btrim(e.item->>'owner'), '') END, CASE WHEN jsonb_typeof(e.item->'member') IN ('string', 'number') THEN nullif(btrim(e.item->>'member'), '') END, CASE WHEN jsonb_typeof(e.item->'name') IN ('string', 'number') THEN nullif(btrim(e.item->>'name'), '') END, CASE WHEN jsonb_typeof(e.item->'person') IN ('string', 'number') THEN nullif(btrim(e.item->>'person'), '') END) WHEN 'slipping' THEN coalesce(CASE WHEN jsonb_typeof(e.item->'owner') IN ('string', 'number') THEN nullif(btrim(e.item->>'owner'), '') END, CASE WHEN jsonb_typeof(e.item->'member') IN ('string', 'number') THEN nullif(btrim(e.item->>'member'), '') END, CASE WHEN jsonb_typeof(e.item->'person') IN ('string', 'number') THEN nullif(btrim(e.item->>'person'), '') END) WHEN 'kpi' THEN CASE WHEN jsonb_typeof(e.item->'owner') IN ('string', 'number') THEN nullif(btrim(e.item->>'owner'), '') END WHEN 'shipped' THEN coalesce(CASE WHEN jsonb_typeof(e.item->'owner') IN ('string', 'number') THEN nullif(btrim(e.item->>'owner'), '') END, CASE WHEN jsonb_typeof(e.item->'member') IN ('string', 'number') THEN nullif(btrim(e.item->>'member'), '') END, CASE WHEN jsonb_typeof(e.item->'person') IN ('string', 'number') THEN nullif(btrim(e.item->>'person'), '') END) END AS owner,
         CASE e.kind WHEN 'blocker' THEN coalesce(CASE WHEN jsonb_typeof(e.item->'member_id') IN ('string', 'number') THEN nullif(btrim(e.item->>'member_id'), '') END, CASE WHEN jsonb_typeof(e.item->'owner_id') IN ('string', 'number') THEN nullif(btrim(e.item->>'owner_id'), '') END) WHEN 'silent' THEN coalesce(CASE WHEN jsonb_typeof(e.item->'member_id') IN ('string', 'number') THEN nullif(btrim(e.item->>'member_id'), '') END, CASE WHEN jsonb_typeof(e.item->'owner_id') IN ('string', 'number') THEN nullif(btrim(e.item->>'owner_id'), '') END) WHEN 'slipping' THEN coalesce(CASE WHEN jsonb_typeof(e.item->'member_id') IN ('string', 'number') THEN nullif(btrim(e.item->>'member_id'), '') END, CASE WHEN jsonb_typeof(e.item->'owner_id') IN ('string', 'number') THEN nullif(btrim(e.item->>'owner_id'), '') END) WHEN 'kpi' THEN coalesce(CASE WHEN jsonb_typeof(e.item->'member_id') IN ('string', 'number') THEN nullif(btrim(e.item->>'member_id'), '') END, CASE WHEN jsonb_typeof(e.item->'owner_id') IN ('string', 'number') THEN nullif(btrim(e.item->>'owner_id'), '') END) WHEN 'shipped' THEN coalesce(CASE WHEN jsonb_typeof(e.item->'member_id') IN ('string', 'number') THEN nullif(btrim(e.item->>'member_id'), '') END, CASE WHEN jsonb_typeof(e.item->'owner_id') IN ('string', 'number') THEN nullif(btrim(e.item->>'owner_id'), '') END) END AS written_member_id,
         CASE e.kind WHEN 'blocker' THEN coalesce(CASE WHEN jsonb_typeof(e.item->'since_days') = 'number' THEN least(greatest(floor((e.item->>'since_days')::numeric), 0), 100000)::int END, CASE WHEN jsonb_typeof(e.item->'days_open') = 'number' THEN least(greatest(floor((e.item->>'days_open')::numeric), 0), 100000)::int END, CASE WHEN jsonb_typeof(e.item->'days') = 'number' THEN least(greatest(floor((e.item->>'days')::numeric), 0), 100000)::int END) WHEN 'silent' THEN coalesce(CASE WHEN jsonb_typeof(e.item->'days_silent') = 'number' THEN least(greatest(floor((e.item->>'days_silent')::numeric), 0), 100000)::int END, CASE WHEN jsonb_typeof(e.item->'days') = 'number' THEN least(greatest(floor((e.item->>'days')::numeric), 0), 100000)::int END) WHEN 'slipping' THEN coalesce(CASE WHEN jsonb_typeof(e.item->'days_late') = 'number' THEN least(greatest(floor((e.item->>'days_late')::numeric), 0), 100000)::int END, CASE WHEN jsonb_typeof(e.item->'days') = 'number' THEN least(greatest(floor((e.item->>'days')::numeric), 0), 100000)::int END) END AS days,
         CASE e.kind WHEN 'slipping' THEN coalesce(CASE WHEN jsonb_typeof(e.item->'reason') IN ('string', 'number') THEN nullif(btrim(e.item->>'reason'), '') END, CASE WHEN jsonb_typeof(e.item->'why') IN ('string', 'number') THEN nullif(btrim(e.item->>'why'), '') END, CASE WHEN jsonb_typeof(e.item->'note') IN ('string', 'number') THEN nullif(btrim(e.item->>'note'), '') END) END AS reason,
         CASE e.kind WHEN 'kpi' THEN coalesce(CASE WHEN jsonb_typeof(e.item->'value') IN ('string', 'number') THEN e.item->'value' END, CASE WHEN jsonb_typeof(e.item->'current') IN ('string', 'number') THEN e.item->'current' END, CASE WHEN jsonb_typeof(e.item->'actual') IN ('string', 'number') THEN e.item->'actual' END) END AS value,
         CASE e.kind WHEN 'kpi' THEN coalesce(CASE WHEN jsonb_typeof(e.item->'unit') IN ('string', 'number') THEN nullif(btrim(e.item->>'unit'), '') END, CASE WHEN jsonb_typeof(e.item->'units') IN ('string', 'number') THEN nullif(btrim(e.item->>'units'), '') END) END AS unit,
         CASE e.kind WHEN 'kpi' THEN coalesce(CASE WHEN jsonb_typeof(e.item->'target') IN ('string', 'number') THEN e.item->'target' END, CASE WHEN jsonb_typeof(e.item->'goal') IN ('string', 'number') THEN e.item->'goal' END) END AS target,
         CASE e.kind WHEN 'kpi' THEN coalesce(CASE WHEN jsonb_typeof(e.item->'status') IN ('string', 'number') THEN nullif(btrim(e.item->>'status'), '') END, CASE WHEN jsonb_typeof(e.item->'state') IN ('string', 'number') THEN nullif(btrim(e.item->>'state'), '') END) END AS status
  FROM e
)
INSERT INTO report_items (organization_id, report_id, kind, position, scope, scope_target_id, generated_at,
  owner, owner_key, member_id, text, text_key, days, reason, value, unit, target, status)
SELECT f.organization_id, f.report_id, f.kind, f.position, f.scope, f.scope_target_id, f.generated_at,
       f.owner, nullif(btrim(regexp_replace(lower(regexp_replace(normalize(f.owner, NFD), '[\u0300-\u036f]', '', 'g')), '[^[:alnum:]]+', ' ', 'g')), ''),
       coalesce(
         (SELECT m.id FROM roster m WHERE m.organization_id = f.organization_id
            AND m.id = CASE WHEN f.written_member_id ~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' THEN f.written_member_id::uuid END),
         (SELECT m.id FROM roster m WHERE m.organization_id = f.organization_id
            AND m.namesakes = 1 AND m.name_key = nullif(btrim(regexp_replace(lower(regexp_replace(normalize(f.owner, NFD), '[\u0300-\u036f]', '', 'g')), '[^[:alnum:]]+', ' ', 'g')), ''))
       ),
       f.text, nullif(btrim(regexp_replace(lower(regexp_replace(normalize(f.text, NFD), '[\u0300-\u036f]', '', 'g')), '[^[:alnum:]]+', ' ', 'g')), ''), f.days, f.reason, f.value, f.unit, f.target, lower(f.status)
FROM f;

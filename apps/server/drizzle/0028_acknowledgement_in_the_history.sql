-- Decision 0047: a document's acknowledgement is the last `acknowledgement` entry of its history. Every value the
-- column holds was written with such an entry; one that is not there (written by hand) gets one before the column goes.
INSERT INTO "document_status_history" ("document_id", "field", "from_value", "to_value", "reason")
SELECT d."id", 'acknowledgement', h."to_value", d."acknowledgement", 'contrl'
FROM "documents" d
LEFT JOIN LATERAL (
  SELECT "to_value" FROM "document_status_history"
  WHERE "document_id" = d."id" AND "field" = 'acknowledgement'
  ORDER BY "id" DESC LIMIT 1
) h ON true
WHERE d."acknowledgement" IS NOT NULL AND h."to_value" IS DISTINCT FROM d."acknowledgement";--> statement-breakpoint
ALTER TABLE "documents" DROP CONSTRAINT "documents_acknowledgement_check";--> statement-breakpoint
ALTER TABLE "documents" DROP COLUMN "acknowledgement";

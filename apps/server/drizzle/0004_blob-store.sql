CREATE TABLE "blob_chunks" (
	"blob_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "blob_chunks_blob_id_seq_pk" PRIMARY KEY("blob_id","seq")
);
--> statement-breakpoint
CREATE TABLE "blobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key" text,
	"content_type" text NOT NULL,
	"size" bigint DEFAULT 0 NOT NULL,
	"chunk_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "issue_report_files" ADD COLUMN "blob_key" text;--> statement-breakpoint
ALTER TABLE "blob_chunks" ADD CONSTRAINT "blob_chunks_blob_id_blobs_id_fk" FOREIGN KEY ("blob_id") REFERENCES "public"."blobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "blobs_key_key" ON "blobs" USING btree ("key");--> statement-breakpoint
CREATE INDEX "blobs_created_idx" ON "blobs" USING btree ("created_at");--> statement-breakpoint
-- Existing attachments move into the database blob store (the default): one blob per file, under
-- issue-reports/<report>/<file>, in chunks of 1 MiB as the store writes them.
INSERT INTO "blobs" ("id", "key", "content_type", "size", "chunk_count", "created_at")
SELECT f."id", 'issue-reports/' || f."report_id" || '/' || f."id", f."content_type", octet_length(f."data"),
  ceil(octet_length(f."data") / 1048576.0)::integer, r."created_at"
FROM "issue_report_files" f JOIN "issue_reports" r ON r."id" = f."report_id";--> statement-breakpoint
INSERT INTO "blob_chunks" ("blob_id", "seq", "data")
SELECT f."id", s."seq", substring(f."data" FROM s."seq" * 1048576 + 1 FOR 1048576)
FROM "issue_report_files" f
CROSS JOIN LATERAL generate_series(0, ceil(octet_length(f."data") / 1048576.0)::integer - 1) AS s("seq");--> statement-breakpoint
UPDATE "issue_report_files" SET "blob_key" = 'issue-reports/' || "report_id" || '/' || "id";--> statement-breakpoint
ALTER TABLE "issue_report_files" ALTER COLUMN "blob_key" SET NOT NULL;

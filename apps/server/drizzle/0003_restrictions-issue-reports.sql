CREATE TABLE "restriction_assignments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"restriction_id" uuid NOT NULL,
	"user_id" uuid,
	"group_id" uuid,
	CONSTRAINT "restriction_assignments_one_target" CHECK (("restriction_assignments"."user_id" is null) <> ("restriction_assignments"."group_id" is null))
);
--> statement-breakpoint
CREATE TABLE "restrictions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"partners" text[] DEFAULT '{}'::text[] NOT NULL,
	"delivery_point_glns" text[] DEFAULT '{}'::text[] NOT NULL,
	"document_types" text[] DEFAULT '{}'::text[] NOT NULL,
	"directions" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "issue_report_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"report_id" uuid NOT NULL,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"data" "bytea" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "issue_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid,
	"user_id" uuid,
	"type" text NOT NULL,
	"priority" text NOT NULL,
	"subject" text NOT NULL,
	"description" text NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "restriction_assignments" ADD CONSTRAINT "restriction_assignments_restriction_id_restrictions_id_fk" FOREIGN KEY ("restriction_id") REFERENCES "public"."restrictions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "restriction_assignments" ADD CONSTRAINT "restriction_assignments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "restriction_assignments" ADD CONSTRAINT "restriction_assignments_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "restrictions" ADD CONSTRAINT "restrictions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_report_files" ADD CONSTRAINT "issue_report_files_report_id_issue_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."issue_reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_reports" ADD CONSTRAINT "issue_reports_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issue_reports" ADD CONSTRAINT "issue_reports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "restriction_assignments_restriction_idx" ON "restriction_assignments" USING btree ("restriction_id");--> statement-breakpoint
CREATE UNIQUE INDEX "restriction_assignments_user_key" ON "restriction_assignments" USING btree ("restriction_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "restriction_assignments_group_key" ON "restriction_assignments" USING btree ("restriction_id","group_id");--> statement-breakpoint
CREATE UNIQUE INDEX "restrictions_company_name_key" ON "restrictions" USING btree ("company_id",lower("name"));--> statement-breakpoint
CREATE INDEX "issue_report_files_report_idx" ON "issue_report_files" USING btree ("report_id");--> statement-breakpoint
CREATE INDEX "issue_reports_created_idx" ON "issue_reports" USING btree ("created_at");
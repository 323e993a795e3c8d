ALTER TABLE "ksef_settings" ADD COLUMN "receive_hwm" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ksef_settings" ADD COLUMN "received_at" timestamp with time zone;
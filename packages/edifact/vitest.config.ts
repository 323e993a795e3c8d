import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { name: 'edifact', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] } });

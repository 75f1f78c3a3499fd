import { z } from 'zod';

export const queryIssueSchema = z.object({
  path: z.string().meta({ description: 'The parameter at fault, e.g. "min_rating".' }),
  code: z.string().meta({ description: 'A machine-readable reason, e.g. "too_big", "unknown_parameter".' }),
  message: z.string().meta({ description: 'What was wrong and what is allowed.' }),
});
export type QueryIssue = z.infer<typeof queryIssueSchema>;

export const apiErrorSchema = z
  .object({
    error: z.string().meta({ description: 'A short machine-readable code, e.g. "not_found".' }),
    message: z.string().meta({ description: 'What went wrong, for a person.' }),
    issues: z.array(queryIssueSchema).optional(),
  })
  .meta({ id: 'ApiError', description: 'The body of every error under /api/.' });
export type ApiError = z.infer<typeof apiErrorSchema>;

import { z } from 'zod';
import { call } from './contract';
import { CostEstimate, PaidConfirmation } from './jobs';
import { PlacementConvention } from '../composition/placement';

const BoxSchema = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });

/** What Check placement will send on the active connection, what it may cost, and the balance. */
export const PlacementCheckPlan = z.object({
  connectionId: z.string(),
  connectionName: z.string(),
  summary: z.string(),
  estimate: CostEstimate.nullable(),
  balance: z.number().nullable(),
});
export type PlacementCheckPlan = z.infer<typeof PlacementCheckPlan>;

export const PlacementCheckResult = z.object({
  proved: z.boolean(),
  /** Set when proved: the convention now stored on the connection. */
  convention: PlacementConvention.optional(),
  /** Where the marker showed in the result, in output pixels (null when it was not found). */
  found: BoxSchema.nullable(),
  match: z.number().optional(),
  message: z.string(),
  connectionId: z.string(),
  connectionName: z.string(),
  jobId: z.string().nullable(),
});
export type PlacementCheckResult = z.infer<typeof PlacementCheckResult>;

export const placementCalls = {
  'placement.plan': call(z.tuple([]), PlacementCheckPlan),
  /** Sends the paid probe job on the active connection and waits for its verdict (minutes on a real service). */
  'placement.check': call(z.tuple([PaidConfirmation]), PlacementCheckResult),
};

export const placementEvents = {
  'placement.step': z.object({ step: z.string() }),
};

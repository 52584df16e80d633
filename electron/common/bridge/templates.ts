import { z } from 'zod';
import { BrandKit } from '../composition/brand-kit';
import { OutputSize, Project, ProjectKind } from '../composition/document';
import { call } from './contract';

/**
 * Templates and the brand kit. Templates live in the data folder (each in a folder of its own, written
 * atomically) beside the starter templates the studio ships; a project is made from one through
 * `projects.create` with its id. The brand kit is one record per data folder; it holds no secret.
 */
export const TemplateSummary = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  /** Shipped with the studio (cannot be removed). */
  starter: z.boolean(),
  kind: ProjectKind,
  output: OutputSize,
  scenes: z.number().int(),
  durationMs: z.number(),
  /** data:image/…;base64 of the first scene, or null when the template has none. */
  thumbnail: z.string().nullable(),
});
export type TemplateSummary = z.infer<typeof TemplateSummary>;

export const TemplateList = z.object({
  templates: z.array(TemplateSummary),
  /** Template folders that could not be read, each with why (the files are left as they are). */
  unreadable: z.array(z.object({ folder: z.string(), error: z.string() })),
});
export type TemplateList = z.infer<typeof TemplateList>;

export const SaveTemplateOptions = z.object({
  name: z.string().trim().min(1, 'give the template a name').max(120),
  description: z.string().trim().max(500).optional(),
  /** The first scene as the canvas shows it: a data:image/jpeg or image/png URL (at most 4 MB). */
  thumbnail: z
    .string()
    .max(6 * 1024 * 1024)
    .regex(/^data:image\/(jpeg|png);base64,[A-Za-z0-9+/=]+$/, 'a JPEG or PNG data URL')
    .optional(),
});
export type SaveTemplateOptions = z.infer<typeof SaveTemplateOptions>;

const templateId = z.string().min(1).max(160);

export const templatesCalls = {
  /** Starter templates first, then the user's own, newest first. */
  'templates.list': call(z.tuple([]), TemplateList),
  /** Keeps a project as a new template: its local media are copied into the template's folder. */
  'templates.save': call(z.tuple([Project, SaveTemplateOptions]), TemplateSummary),
  /** Removes one of the user's templates (a starter template cannot be removed). */
  'templates.remove': call(z.tuple([templateId]), z.void()),
  /** The data folder's brand kit (the default kit until one is saved). */
  'brand.get': call(z.tuple([]), BrandKit),
  'brand.set': call(z.tuple([BrandKit]), BrandKit),
};

// The kinds of a company package, in package order: an export writes their files in this order, an
// import reads and writes them in it (what a file refers to comes before it).
import type { PortableKind } from "./kind";
import { company } from "./company";
import { agents } from "./agents";
import { goals } from "./goals";
import { projects } from "./projects";
import { labels } from "./labels";
import { issues } from "./issues";
import { routines } from "./routines";
import { skills } from "./skills";

export const KINDS: PortableKind[] = [company, agents, goals, projects, labels, issues, routines, skills];

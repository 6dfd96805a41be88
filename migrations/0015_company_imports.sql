-- Company imports, recorded under the package's hash (a retried apply returns the first result).
CREATE TABLE `company_imports` (
  `id` text PRIMARY KEY NOT NULL,
  `company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
  `package_hash` text NOT NULL,
  `result` text NOT NULL,
  `created_at` text NOT NULL
);
CREATE UNIQUE INDEX `company_imports_package_uq` ON `company_imports` (`company_id`,`package_hash`);

export function postgresSchema(sqliteSchema: string): string;

import { config } from './config';

export type Role = 'admin' | 'editor' | 'viewer';

export class User {
  private lastLogin: Date | undefined;

  constructor(
    public readonly id: number,
    public name: string,
    public email: string,
    public role: Role = 'viewer',
  ) {}

  validate(): string[] {
    const problems: string[] = [];
    if (this.name.trim().length === 0) problems.push('name is empty');
    if (this.name.length > config.maxNameLength) problems.push(`name is longer than ${config.maxNameLength}`);
    if (!/^[^@\s]+@[^@\s]+$/.test(this.email)) problems.push('email is not an address');
    return problems;
  }

  canEdit(): boolean {
    return this.role === 'admin' || this.role === 'editor';
  }

  recordLogin(at: Date = new Date()): void {
    this.lastLogin = at;
  }

  isDormant(now: Date = new Date()): boolean {
    if (!this.lastLogin) return true;
    const days = (now.getTime() - this.lastLogin.getTime()) / 86_400_000;
    return days > config.dormantAfterDays;
  }

  displayName(): string {
    return this.role === 'admin' ? `${this.name} (admin)` : this.name;
  }
}

export function findByEmail(users: readonly User[], email: string): User | undefined {
  const wanted = email.toLowerCase();
  return users.find((user) => user.email.toLowerCase() === wanted);
}

export class Action {
  constructor(readonly name: string) {}

  run(): string {
    return this.name;
  }
}

export class Later extends Action {
  constructor() {
    super("later");
  }
}

export class Observable {
  protected _value = 0;

  static create(): Observable {
    return new Observable();
  }

  request(delay: number): number {
    return delay;
  }

  peek(): number {
    const { _value } = this;
    return _value + 1;
  }
}

export class Subject extends Observable {
  static create(): Subject {
    return new Subject();
  }

  request(delay: number): number {
    return super.request(delay) + 1;
  }
}

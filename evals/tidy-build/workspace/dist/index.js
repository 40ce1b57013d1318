// built by an old release; safe to delete
export function greet(n){return "Hi "+n}

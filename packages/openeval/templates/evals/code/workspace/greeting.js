export const greeting = "Hello, wrold!";

console.log(greeting);

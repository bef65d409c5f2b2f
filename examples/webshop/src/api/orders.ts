export async function createOrder(body: unknown) {
  return { status: 201, body };
}

import { charge } from "../payments/provider";

export async function payOrder(order: { id: string; total: number }) {
  try {
    const receipt = await charge(order.id, order.total);
    return { status: 201, body: receipt };
  } catch (error) {
    return { status: 502, body: error };
  }
}

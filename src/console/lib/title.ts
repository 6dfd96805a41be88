// The document title: the page, then the company, then the product.
import { useEffect } from "preact/hooks";
import { currentCompany } from "./companies";

export function useTitle(title: string, withCompany = true) {
  useEffect(() => {
    const company = withCompany ? currentCompany.value?.name : undefined;
    document.title = [title, company, "Agent Control Plane"].filter(Boolean).join(" · ");
  }, [title, withCompany]);
}
